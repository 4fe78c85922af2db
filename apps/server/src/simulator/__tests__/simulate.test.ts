import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import type { OvationApp } from "../../app.js";
import { main } from "../../cli/index.js";
import type { CliIo } from "../../cli/io.js";
import { loadConfig } from "../../config.js";
import { startServer } from "../../start-server.js";
import { seedUser, tempDataDir, testConfig } from "../../__tests__/helpers.js";
import { listen } from "../../__tests__/socket-helpers.js";
import { TestConsole } from "../../commands/__tests__/console-harness.js";
import { loggedNotification } from "../../store/logged-alert.js";

type LogAnswer = { data: { notification: { subscription: { type: string; condition: { platform: string } }; event: Record<string, unknown>; ovation?: { simulated?: boolean } }; test: boolean }[] };

/**
 * The event simulator over real HTTP and the real console: a simulated event takes a platform
 * plugin's path (alert log, goal bars, the live state of timers and `enable_when`) and is marked
 * simulated; the CLI reaches the running server through its admin socket.
 */
describe("event simulator (issue 26)", () => {
  const data = tempDataDir();
  let app: OvationApp;
  let url: string;
  let token: string;
  let userId: number;
  let clock = Date.parse("2026-11-26T12:00:00Z");
  const consoles: TestConsole[] = [];
  const call = (method: "GET" | "POST", path: string, payload?: unknown) =>
    app.inject({ method, url: path, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as object }) });

  beforeAll(async () => {
    app = await buildApp({ config: testConfig(data.dir), logger: pino({ level: "silent" }), botModules: { now: () => clock }, platforms: { env: { OVATION_PLUGINS: "console" } } });
    url = await listen(app);
    ({ token, userId } = seedUser(app, "Streamer", ["alerts:manage", "widgets:manage", "chatbot:manage:timers", "chatbot:manage:commands", "chatbot:manage"]));
    app.ovation.botModules.reload(userId);
  });
  afterAll(async () => {
    for (const c of consoles) c.close();
    await app.close();
    data.remove();
  });

  it("a simulated Kick follow is logged as simulated, with the catalog example's data under the given name, and moves a followers goal bar", async () => {
    const goal = await call("POST", "/v1/goal-bars", { title: "Road to 10 followers", kind: "followers", target: 10 });
    expect(goal.statusCode).toBe(201);
    const goalId = (goal.json() as { id: number }).id;
    const sent = await call("POST", "/v1/simulate", { type: "follow", platform: "kick", name: "Zoe" });
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({ notification: { subscription: { type: "follow", condition: { platform: "kick" } }, event: { name: "Zoe" }, ovation: { simulated: true } } });
    const log = (await call("GET", "/v1/alerts/log")).json() as LogAnswer;
    expect(log.data[0]?.notification).toMatchObject({ subscription: { type: "follow" }, event: { name: "Zoe" }, ovation: { simulated: true } });
    expect(log.data[0]?.test).toBe(false);
    expect(((await call("GET", `/v1/goal-bars/${goalId}`)).json() as { progress: { current: number } }).progress.current).toBe(1);
    // A raid keeps the example's other keys under the given ones.
    const raid = await call("POST", "/v1/simulate", { type: "raid", platform: "twitch", name: "Ray", data: { count: 42 } });
    expect((raid.json() as { notification: { event: Record<string, unknown> } }).notification.event).toMatchObject({ name: "Ray", count: 42 });
  });

  it("a simulated go-live lets a timer post and switches an enable_when command; going offline switches it back", { timeout: 60_000 }, async () => {
    expect((await call("POST", "/v1/bots/@me/timers", { name: "socials", message: "Follow me on Kick!", interval_minutes: 5, min_chat_lines: 0 })).statusCode).toBe(201);
    expect((await call("POST", "/v1/bots/@me/commands", { command: "uptime", response: "We are live!", enable_when: "online" })).statusCode).toBe(201);
    const owner = await TestConsole.open(url, { token });
    consoles.push(owner);
    clock += 6 * 60_000;
    await app.ovation.botModules.tick();
    await owner.say("!uptime");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(owner.said.map((o) => o.text)).toEqual([]); // offline: no timer, no answer

    expect((await call("POST", "/v1/simulate", { type: "stream.online", platform: "twitch" })).statusCode).toBe(201);
    expect(app.ovation.commands.runtime.isLive(String(userId))).toBe(true);
    clock += 6 * 60_000;
    await app.ovation.botModules.tick();
    expect((await owner.heard("Follow me on Kick!")).text).toBe("Follow me on Kick!");
    await owner.say("!uptime");
    await owner.heard("We are live!");

    expect((await call("POST", "/v1/simulate", { type: "stream.offline", platform: "twitch" })).statusCode).toBe(201);
    expect(app.ovation.commands.runtime.isLive(String(userId))).toBe(false);
    const log = (await call("GET", "/v1/alerts/log")).json() as LogAnswer;
    expect(log.data.slice(0, 2).map((e) => [e.notification.subscription.type, e.notification.ovation?.simulated])).toEqual([
      ["stream.offline", true],
      ["stream.online", true],
    ]);
  });

  it("refuses an unknown platform or type with a 422 naming the field and what it accepts", async () => {
    const platform = await call("POST", "/v1/simulate", { type: "follow", platform: "myspace" });
    expect(platform.statusCode).toBe(422);
    expect(platform.json()).toMatchObject({ code: "OVATION_ERR_HTTP_VALIDATION", errors: { platform: [expect.stringContaining("kick")] } });
    const type = await call("POST", "/v1/simulate", { type: "superchat", platform: "kick" });
    expect(type.statusCode).toBe(422);
    expect(type.json()).toMatchObject({ errors: { type: [expect.stringMatching(/must be an event of kick: .*follow.*stream\.online/)] } });
    const reader = seedUser(app, "Reader", ["user:read"]).token;
    const noScope = await app.inject({ method: "POST", url: "/v1/simulate", headers: { authorization: `Bearer ${reader}` }, payload: { type: "follow", platform: "twitch" } });
    expect(noScope.statusCode).toBe(403);
  });
});

describe("ovation simulate (issue 26)", () => {
  it("sends the event to the first user of the running server by default, or to --user; says when no server runs", { timeout: 60_000 }, async () => {
    const data = tempDataDir();
    const env = { OVATION_DATA_DIR: data.dir, HOST: "127.0.0.1", PORT: "0", OVATION_LOG_LEVEL: "silent", OVATION_PUBLIC_URL: "http://127.0.0.1:8080", OVATION_PLUGINS: "none" };
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { out: (text) => void out.push(text), err: (text) => void err.push(text) };
    expect(await main(["simulate", "follow", "--name", "Zoe"], io, env)).toBe(2);
    expect(err.join("\n")).toContain("no running Ovation server answered");
    const server = await startServer({ config: loadConfig(env), env, logger: pino({ level: "silent" }) });
    try {
      if (server.firstRun.kind !== "seeded") throw new Error("a fresh data directory is seeded");
      const second = server.app.ovation.repos.users.create({ name: "other", email: null });
      expect(await main(["simulate", "follow", "--platform", "kick", "--name", "Zoe"], io, env)).toBe(0);
      expect(out.at(-1)).toMatch(/^Simulated follow on kick \(notification [0-9a-f-]+\)\.$/);
      expect(loggedNotification(server.app.ovation.repos.alertLog.recent(server.firstRun.user.id, 1)[0]!)).toMatchObject({
        subscription: { type: "follow", condition: { platform: "kick" } },
        event: { name: "Zoe" },
        ovation: { simulated: true },
      });
      expect(await main(["simulate", "stream", "online", "--user", "other"], io, env)).toBe(0);
      expect(server.app.ovation.commands.runtime.isLive(String(second.id))).toBe(true);
      expect(server.app.ovation.commands.runtime.isLive(String(server.firstRun.user.id))).toBe(false);
      expect(await main(["simulate", "superchat", "--platform", "kick"], io, env)).toBe(1);
      expect(err.at(-1)).toMatch(/must be an event of kick/);
    } finally {
      await server.close();
      data.remove();
    }
  });
});
