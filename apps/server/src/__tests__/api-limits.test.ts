import { readFileSync } from "node:fs";
import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, test } from "vitest";
import { buildApp } from "../app.js";
import { StoreKeyValueStore } from "../store/key-value.js";
import { USER_CAPS } from "../store/user-caps.js";
import { seedDefaultAlertSet, seedUser, tempDataDir, testApp, testConfig, useTwoUserApp } from "./helpers.js";
import { loggedNotification } from "../store/logged-alert.js";

/** Issue 10, high: bounded template compilation and per-user caps, each answered with 422 naming the limit. */
const fx = useTwoUserApp(async ({ app, alice }) => {
  await seedDefaultAlertSet(app, alice.userId);
});
const commands = "/v1/bots/@me/commands";

describe("template compilation at save", () => {
  test("a response that would expand at compile time is refused with 422 naming the limit", async () => {
    const res = await fx.call("POST", commands, fx.alice.token, { command: "bomb", response: `{{ f${"()".repeat(900)} }}` });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.response[0]).toContain("compiled-size limit");
    const deep = await fx.call("POST", commands, fx.alice.token, { command: "deep", response: `{{ a${".b".repeat(300)} }}` });
    expect(deep.statusCode).toBe(422);
    expect(deep.json().errors.response[0]).toContain("nesting limit is 64");
  });

  test("{{ - -1 }} is refused at save instead of failing at every run", async () => {
    const res = await fx.call("POST", commands, fx.alice.token, { command: "minus", response: "{{ - -1 }}" });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.response[0]).toContain("invalid JavaScript");
  });

  test("command names with zero-width characters, bidi overrides or NUL are refused", async () => {
    const { names } = JSON.parse(readFileSync(new URL("../../../../fixtures/commands/hostile-command-names.json", import.meta.url), "utf8")) as { names: string[] };
    expect(names.length).toBeGreaterThanOrEqual(10);
    for (const name of names) {
      const res = await fx.call("POST", commands, fx.alice.token, { command: name, response: "hi" });
      expect(res.statusCode, JSON.stringify(name)).toBe(422);
      expect(JSON.stringify(res.json().errors)).toContain("zero-width");
      const alias = await fx.call("POST", commands, fx.alice.token, { command: "fine", command_aliases: [name], response: "hi" });
      expect(alias.statusCode, JSON.stringify(name)).toBe(422);
    }
  });
});

describe("per-user caps", () => {
  test(`at most ${USER_CAPS.commands} commands per user`, async () => {
    const repos = fx.app.ovation.repos;
    const have = repos.commands.listForUser(fx.bob.userId).length;
    const base = { command_aliases: [], response: "hi", command_regex: null, permissions: 0, price: 0, send_as: "say", enable_when: "both", user_cooldown: 0, global_cooldown: 0, is_visible: true };
    for (let i = have; i < USER_CAPS.commands; i++) repos.commands.create(fx.bob.userId, { ...base, command: `c${i}` });
    const res = await fx.call("POST", commands, fx.bob.token, { command: "one-more", response: "hi" });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: "OVATION_ERR_COMMANDS_LIMIT_REACHED" });
    expect(res.json().message).toContain(`the limit is ${USER_CAPS.commands}`);
    // Another user is unaffected.
    expect((await fx.call("POST", commands, fx.alice.token, { command: "mine", response: "hi" })).statusCode).toBe(201);
  });

  test(`alert data is at most ${USER_CAPS.alertDataBytes} bytes of JSON`, async () => {
    const data = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, "x".repeat(1_900)]));
    const res = await fx.call("POST", "/v1/alerts", fx.alice.token, { template: "follow", data });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ code: "OVATION_ERR_ALERTS_DATA_TOO_LARGE", errors: { data: [expect.stringContaining("alertDataBytes")] } });
  });

  test(`the alert log keeps at most ${USER_CAPS.alertLogBytes} bytes per user, oldest dropped first`, async () => {
    const log = fx.app.ovation.repos.alertLog;
    const big = (i: number) => ({
      subscription: { type: "custom", version: "1", condition: { platform: "ovation", platform_id: "1" } },
      notification: { id: `big-${i}`, created_at: new Date().toISOString() },
      event: { data: { blob: "y".repeat(30_000) }, random: 1, template: null, test: true },
    });
    for (let i = 0; i < 100; i++) log.append(fx.alice.userId, big(i), true);
    const kept = log.recent(fx.alice.userId, 1_000);
    const bytes = kept.reduce((sum, e) => sum + Buffer.byteLength(JSON.stringify(loggedNotification(e))), 0);
    expect(bytes).toBeLessThanOrEqual(USER_CAPS.alertLogBytes);
    expect(kept[0]?.notification_id).toBe("big-99");
    expect(log.find(fx.alice.userId, "big-0")).toBeUndefined();
  });

  test("key-value tables and keys are capped per user with an error naming the cap; other users unaffected", async () => {
    const kv = new StoreKeyValueStore(fx.app.ovation.repos.store);
    const channel = String(fx.bob.userId);
    for (let t = 0; t < USER_CAPS.kvTables; t++) await kv.update(channel, `t${t}`, "k", () => 1);
    await expect(kv.update(channel, "one-table-too-many", "k", () => 1)).rejects.toThrow(/kvTables/);
    for (let k = USER_CAPS.kvTables; k < USER_CAPS.kvKeys; k++) await kv.update(channel, "t0", `k${k}`, () => k);
    await expect(kv.update(channel, "t1", "one-key-too-many", () => 1)).rejects.toThrow(/kvKeys/);
    // Existing keys still change and can be deleted; another user still writes.
    await expect(kv.update(channel, "t0", "k", () => 2)).resolves.toBe(2);
    await kv.update(channel, "t0", "k", () => undefined);
    await expect(kv.update(channel, "t1", "now-fits", () => 3)).resolves.toBe(3);
    await expect(kv.update(String(fx.alice.userId), "points", "viewer", () => 5)).resolves.toBe(5);
  });
});

describe("a store holding compile bombs (written before the bounds)", () => {
  test("still starts quickly: each bomb is refused by the compile bounds, logged and skipped; valid commands load", async () => {
    const dir = tempDataDir();
    const first = await testApp(dir.dir);
    const user = seedUser(first, "Bomber");
    const base = { command_aliases: [], command_regex: null, permissions: 0, price: 0, send_as: "say", enable_when: "both", user_cooldown: 0, global_cooldown: 0, is_visible: true };
    for (let i = 0; i < 40; i++) first.ovation.repos.commands.create(user.userId, { ...base, command: `bomb${i}`, response: `{{ f${"()".repeat(900 + i)} }}` });
    first.ovation.repos.commands.create(user.userId, { ...base, command: "hug", response: "{{ event.user.username }} hugs {{ args[1] }}" });
    await first.close();
    const second = await testApp(dir.dir);
    try {
      expect((await second.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);
      expect(second.ovation.commands.runtime.commands(String(user.userId)).map((c) => c.command)).toEqual(["hug"]);
    } finally {
      await second.close();
      dir.remove();
    }
  });
});

describe("a store that breaks a cap", () => {
  test("still starts, and each breach is logged as a warning", async () => {
    const dir = tempDataDir();
    const first = await testApp(dir.dir);
    const user = seedUser(first, "Hoarder");
    const base = { command_aliases: [], response: "hi", command_regex: null, permissions: 0, price: 0, send_as: "say", enable_when: "both", user_cooldown: 0, global_cooldown: 0, is_visible: true };
    for (let i = 0; i <= USER_CAPS.commands; i++) first.ovation.repos.commands.create(user.userId, { ...base, command: `c${i}` });
    await first.close();
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString("utf8")), done()) });
    const second = await buildApp({ config: testConfig(dir.dir), logger: pino({ level: "warn" }, sink) });
    try {
      expect((await second.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);
      const warning = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l["cap"] === "commands");
      expect(warning).toMatchObject({ level: 40, userId: user.userId, limit: USER_CAPS.commands, actual: USER_CAPS.commands + 1 });
    } finally {
      await second.close();
      dir.remove();
    }
  });
});
