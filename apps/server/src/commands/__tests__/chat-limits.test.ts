import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import type { OvationApp } from "../../app.js";
import { seedUser, tempDataDir, testConfig } from "../../__tests__/helpers.js";

describe("chat pattern limits at save (HTTP 422 in the Laravel shape, naming the limit)", () => {
  const data = tempDataDir();
  let app: OvationApp;
  let token: string;
  let userId: number;
  const call = (method: "PUT" | "POST", path: string, payload: object) =>
    app.inject({ method, url: path, headers: { authorization: `Bearer ${token}` }, payload });

  beforeAll(async () => {
    app = await buildApp({ config: testConfig(data.dir), logger: pino({ level: "silent" }) });
    ({ token, userId } = seedUser(app, "Streamer", ["chatbot:manage:commands", "chatbot:manage:moderation"]));
  });
  afterAll(async () => {
    await app.close();
    data.remove();
  });

  it("a heavy command_regex is refused naming repeatCount or programSize", async () => {
    const bomb = await call("POST", `/v1/bots/${userId}/commands`, { command: "bomb", response: "x", command_regex: "(?i)(?:\\w+\\s?){1,999}!" });
    expect(bomb.statusCode).toBe(422);
    expect(bomb.json()).toMatchObject({ code: "OVATION_ERR_HTTP_VALIDATION", errors: { command_regex: [expect.stringContaining("(repeatCount)")] } });
    const big = await call("POST", `/v1/bots/${userId}/commands`, { command: "big", response: "x", command_regex: "(?i)(?:\\w+\\s?){1,100}!" });
    expect(big.statusCode).toBe(422);
    expect(big.json()).toMatchObject({ errors: { command_regex: [expect.stringContaining("(programSize)")] } });
  });

  it("the 21st regex command, and regexes over 4,000 instructions together, are refused; nothing is stored", async () => {
    for (let i = 0; i < 20; i++) {
      const saved = await call("POST", `/v1/bots/${userId}/commands`, { command: `r${i}`, response: "x", command_regex: `^!q${i}x` });
      expect(saved.statusCode).toBe(201);
    }
    const more = await call("POST", `/v1/bots/${userId}/commands`, { command: "r20", response: "x", command_regex: "^!more" });
    expect(more.statusCode).toBe(422);
    expect(more.json()).toMatchObject({ code: "OVATION_ERR_COMMANDS_LIMIT_REACHED", errors: { command_regex: [expect.stringContaining("the limit is 20 (regexCommands)")] } });
    // A command without a regex is still welcome.
    expect((await call("POST", `/v1/bots/${userId}/commands`, { command: "plain", response: "x" })).statusCode).toBe(201);
    // Replacing the regexes one by one with heavier (allowed) ones: the total is refused on the way.
    const ids = app.ovation.repos.commands.listForUser(userId).filter((c) => c.command_regex !== null).map((c) => c.id);
    const answers: number[] = [];
    for (const [i, id] of ids.entries()) {
      const put = await call("PUT", `/v1/bots/${userId}/commands/${id}`, { command: `r${i}`, response: "x", command_regex: `(\\w|\\W){50,100}${i}$` });
      answers.push(put.statusCode);
      if (put.statusCode === 422) expect(put.json()).toMatchObject({ code: "OVATION_ERR_COMMANDS_LIMIT_REACHED", errors: { command_regex: [expect.stringContaining("(commandProgramTotal)")] } });
    }
    expect(answers).toContain(422);
    expect(app.ovation.repos.commands.listForUser(userId)).toHaveLength(21);
  });

  it("a store holding more regex commands than the limits allow (written before them) still loads the first 20 and every other command", async () => {
    const { repos, commands } = app.ovation;
    const old = repos.users.create({ name: "Old" });
    const record = (name: string, regex: string | null) => ({ command: name, command_aliases: [], response: `hi from ${name}`, command_regex: regex, permissions: 0, price: 0, send_as: "say", enable_when: "both", user_cooldown: 0, global_cooldown: 0, is_visible: true });
    for (let i = 0; i < 25; i++) repos.commands.create(old.id, record(`old${i}`, `^!w${i}x`));
    repos.commands.create(old.id, record("plain", null));
    commands.reload(old.id);
    const loaded = commands.runtime.commands(String(old.id));
    expect(loaded.filter((c) => c.command_regex !== null).map((c) => c.command)).toEqual(Array.from({ length: 20 }, (_, i) => `old${i}`));
    expect(loaded.map((c) => c.command)).toContain("plain");
  });

  it("stored moderation settings over the limits (saved before them) load without the patterns that do not fit", async () => {
    const { repos, botModules } = app.ovation;
    const old = repos.users.create({ name: "OldModeration" });
    const heavy = Array.from({ length: 20 }, (_, i) => `(\\w|\\W){50,100}${i}$`);
    const stored = botModules.moderation.prepare({ bad_words: { enabled: true, words: ["darn"] } }).settings;
    repos.botState.saveModeration(old.id, { ...stored, bad_words: { ...stored.bad_words, patterns: ["(?:.{1,999})x", ...heavy] } });
    botModules.reload(old.id);
    const loaded = botModules.moderation.settings(String(old.id));
    expect(loaded?.bad_words.words).toEqual(["darn"]);
    expect(loaded?.bad_words.patterns.length).toBeGreaterThan(0);
    expect(loaded?.bad_words.patterns).not.toContain("(?:.{1,999})x");
    expect(loaded?.bad_words.patterns).toEqual(heavy.slice(0, loaded?.bad_words.patterns.length));
  });

  it("moderation patterns over their total are refused naming moderationProgramTotal", async () => {
    const patterns = Array.from({ length: 20 }, (_, i) => `(\\w|\\W){50,100}${i}$`);
    const refused = await call("PUT", `/v1/bots/${userId}/moderation`, { bad_words: { enabled: true, patterns } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: "OVATION_ERR_HTTP_VALIDATION", errors: { "bad_words.patterns": [expect.stringContaining("(moderationProgramTotal)")] } });
    const tooMany = await call("PUT", `/v1/bots/${userId}/moderation`, { bad_words: { enabled: true, words: Array.from({ length: 1_001 }, (_, i) => `w${i}`) } });
    expect(tooMany.statusCode).toBe(422);
    const fine = await call("PUT", `/v1/bots/${userId}/moderation`, { bad_words: { enabled: true, patterns: patterns.slice(0, 5), words: ["go away fool"] } });
    expect(fine.statusCode).toBe(200);
  });
});
