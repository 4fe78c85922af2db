import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import type { OvationApp } from "../../app.js";
import { seedUser, tempDataDir, testConfig } from "../../__tests__/helpers.js";
import { connect, join, listen, nextEvent, waitFor } from "../../__tests__/socket-helpers.js";
import { SendOnlyPlugin, TestConsoles } from "./console-harness.js";
import type { TestConsole } from "./console-harness.js";

const SCOPES = ["chatbot:manage:commands", "chatbot:manage:timers", "chatbot:manage:giveaways", "chatbot:manage:moderation", "widgets:manage", "alerts:manage", "chatbot:manage"];

describe("bot modules through the console plugin", () => {
  const data = tempDataDir();
  let app: OvationApp;
  let url: string;
  let token: string;
  let userId: number;
  let clock = Date.parse("2026-11-23T12:00:00Z");
  const consoles = new TestConsoles(() => ({ url, token }));
  const open = (auth: { as?: string; badges?: string[] } = {}) => consoles.open(auth);
  const call = (method: "GET" | "POST" | "PUT" | "DELETE", path: string, payload?: unknown) =>
    app.inject({ method, url: path, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as object }) });

  let sendOnly: SendOnlyPlugin;
  const start = async () => {
    // A platform without the moderation part of the plugin contract (it can only send).
    sendOnly = new SendOnlyPlugin(() => userId, { name: "sendonly" });
    app = await buildApp({ config: testConfig(data.dir), logger: pino({ level: "silent" }), botModules: { now: () => clock }, platforms: { env: {}, extra: [sendOnly] } });
    url = await listen(app);
  };

  beforeAll(async () => {
    await start();
    ({ token, userId } = seedUser(app, "Streamer", SCOPES));
    app.ovation.botModules.reload(userId);
  });
  afterAll(async () => {
    consoles.closeAll();
    await app.close();
    data.remove();
  });

  it("answers a viewer's commands in the order they were typed, a sandboxed template before a quick !help (issue 26, bug 8)", { timeout: 60_000 }, async () => {
    const created = await call("POST", "/v1/bots/@me/commands", { command: "slowpoke", response: "slow answer for {{ event.user.username }}" });
    expect(created.statusCode).toBe(201);
    const viewer = await open({ as: "orderly" });
    const before = viewer.said.length;
    await Promise.all([viewer.say("!slowpoke"), viewer.say("!help")]);
    await viewer.heard("Commands:");
    await viewer.heard("slow answer");
    expect(viewer.said.slice(before).map((o) => o.text.split(" ")[0])).toEqual(["slow", "Commands:"]);
    expect((await call("DELETE", `/v1/bots/@me/commands/${(created.json() as { id: number }).id}`)).statusCode).toBeLessThan(300);
  });

  it("a timer posts (a sandboxed template) only while live, after its interval, with enough chat since its last post", { timeout: 60_000 }, async () => {
    const created = await call("POST", "/v1/bots/@me/timers", { name: "socials", message: "Hi from {{ event.channel.username }} on {{ event.platform }}!", interval_minutes: 5, min_chat_lines: 3 });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: "socials", interval_minutes: 5, min_chat_lines: 3, send_as: "say", enabled: true, platforms: [] });
    const owner = await open();
    const viewer = await open({ as: "viewer1" });
    app.ovation.commands.runtime.setLive(String(userId), true);
    await viewer.say("hello");
    await viewer.say("how are you");
    clock += 5 * 60_000;
    await app.ovation.botModules.tick();
    expect(owner.said).toEqual([]); // two lines are not enough
    await viewer.say("third line");
    await app.ovation.botModules.tick();
    expect((await owner.heard("Hi from")).text).toBe("Hi from Streamer on ovation!");
    const count = owner.said.length;
    for (const line of ["a", "b", "c"]) await viewer.say(line);
    clock += 4 * 60_000;
    await app.ovation.botModules.tick();
    expect(owner.said).toHaveLength(count); // the interval has not passed again
    app.ovation.commands.runtime.setLive(String(userId), false);
    clock += 60_000;
    await app.ovation.botModules.tick();
    expect(owner.said).toHaveLength(count); // offline
    const listed = await call("GET", "/v1/bots/@me/timers");
    expect(listed.json().data[0].status).toEqual([{ platform: "ovation", lines: 3, last_post_at: expect.any(Number), next_post_at: expect.any(Number) }]);
    expect(listed.json().data[0].live).toBe(false); // set offline just above
  });

  it("refuses bad timers with Laravel errors naming the field", async () => {
    const bad = await call("POST", "/v1/bots/@me/timers", { name: "x", message: "{{ oops", interval_minutes: 0 });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toContain("interval_minutes");
    const syntax = await call("POST", "/v1/bots/@me/timers", { name: "x", message: "{% if %}" });
    expect(syntax.statusCode).toBe(422);
    expect(syntax.json().errors.message[0]).toMatch(/^The message field is invalid/);
    const taken = await call("POST", "/v1/bots/@me/timers", { name: "SOCIALS", message: "again" });
    expect(taken.json()).toMatchObject({ code: "OVATION_ERR_TIMERS_NAME_TAKEN", errors: { name: [expect.stringContaining("already been taken")] } });
    expect((await call("GET", "/v1/bots/@me/timers/999")).json().code).toBe("OVATION_ERR_TIMERS_NOT_FOUND");
  });

  it("runs a giveaway: keyword entries by rule, weighted draw, reroll, announcements in the bot's language", { timeout: 60_000 }, async () => {
    const owner = await open();
    const mod = await open({ as: "moddy", badges: ["moderator"] });
    expect((await call("POST", "/v1/bots/@me/giveaways", { keyword: "!win", eligibility: "subscribers", subscriber_weight: 2 })).statusCode).toBe(201);
    await owner.heard("A giveaway is open: type !win to enter!");
    expect((await call("POST", "/v1/bots/@me/giveaways", { keyword: "!win" })).json()).toMatchObject({ code: "OVATION_ERR_GIVEAWAYS_STATE" });
    const subs = await Promise.all(["sub1", "sub2"].map((as) => open({ as, badges: ["subscriber"] })));
    const pleb = await open({ as: "pleb" });
    for (const sub of subs) await sub.say("!win");
    await subs[0]!.say("!win again"); // one entry per viewer
    await pleb.say("!win"); // not a subscriber
    await waitFor(() => app.ovation.botModules.giveaways.get(String(userId))?.entries.length === 2, 10_000, "two entries");
    const state = (await call("GET", "/v1/bots/@me/giveaways")).json().data;
    expect(state).toMatchObject({ status: "open", entry_count: 2, ticket_count: 4 });
    expect(state.entries.map((e: { username: string }) => e.username).sort()).toEqual(["sub1", "sub2"]);
    await mod.say("!language de");
    await owner.heard("Ich spreche jetzt Deutsch.");
    expect((await call("POST", "/v1/bots/@me/giveaways/close")).json()).toMatchObject({ status: "closed" });
    await owner.heard("Das Gewinnspiel ist mit 2 Teilnahmen geschlossen.");
    const drawn = (await call("POST", "/v1/bots/@me/giveaways/draw", { count: 1 })).json();
    const winner = drawn.winners[0];
    expect(["sub1", "sub2"]).toContain(winner.username);
    await owner.heard(`Glückwunsch @${winner.username}`);
    const rerolled = (await call("POST", "/v1/bots/@me/giveaways/reroll", { platform: "ovation", user_platform_id: winner.user_platform_id })).json();
    expect(rerolled.winner.username).not.toBe(winner.username);
    expect(rerolled.giveaway.winners.map((w: { rerolled: boolean }) => w.rerolled)).toEqual([true, false]);
    expect((await call("POST", "/v1/bots/@me/giveaways/draw")).json()).toMatchObject({ code: "OVATION_ERR_GIVEAWAYS_STATE", message: "Every entrant has been drawn already." });
    await mod.say("!language en");
  });

  it("auto-moderation: each rule triggers its action on the console, exemptions hold, warnings go to chat", { timeout: 60_000 }, async () => {
    const settings = {
      caps: { enabled: true, min_length: 8, max_percent: 60, action: { type: "timeout", seconds: 30 }, exempt: ["broadcaster", "moderator"] },
      symbols: { enabled: true, min_length: 8, max_percent: 60, action: { type: "delete" } },
      links: { enabled: true, allowed_domains: ["example.com"], action: { type: "delete" }, exempt: ["broadcaster", "moderator", "vip"] },
      bad_words: { enabled: true, words: ["darn"], patterns: ["fr[e3]{2}\\s*b[i1]ts"], action: { type: "ban" } },
      length: { enabled: true, max_length: 60, action: { type: "warn" } },
      toxicity: { enabled: true, thresholds: { warn: null, delete: 40, timeout: null, ban: null } },
    };
    const put = await call("PUT", "/v1/bots/@me/moderation", settings);
    expect(put.statusCode).toBe(200);
    expect(put.json().scorer.name).toBe("lexicon-v1");
    // "Test a message" (issue 26): which rule fires, with the writer's exemptions, and nothing enforced.
    const test = async (message: string, badges: string[] = []) =>
      (await call("POST", "/v1/bots/@me/moderation/test", { message, event: { platform: "ovation", badges: badges.map((type) => ({ type, text: null, id: type, count: null })) } })).json();
    expect(await test("THIS IS ALL SHOUTING")).toEqual({ verdict: { rule: "caps", action: { type: "timeout", seconds: 30 }, detail: expect.any(String) } });
    expect(await test("THIS IS ALL SHOUTING", ["moderator"])).toEqual({ verdict: null });
    expect(await test("see https://evil.example.net now")).toMatchObject({ verdict: { rule: "links", action: { type: "delete" } } });
    expect(await test("see https://www.example.com now")).toEqual({ verdict: null });
    expect(await test("what a darn shame")).toMatchObject({ verdict: { rule: "bad_words", action: { type: "ban" } } });
    expect(await test("hello everyone, nice stream")).toEqual({ verdict: null });
    expect(app.ovation.botModules.recentModeration(userId)).toEqual([]);
    const owner = await open();
    const troll = await open({ as: "troll" });
    const vip = await open({ as: "vippy", badges: ["vip"] });
    const mod = await open({ as: "moddy2", badges: ["moderator"] });
    const cases: [TestConsole, string, string | null][] = [
      [troll, "THIS IS SHOUTING", "timeout"],
      [troll, "$$$ ### !!! ???", "delete"],
      [troll, "go to spam-site.xyz now", "delete"],
      [troll, "see sub.example.com", null],
      [troll, "oh D4RN it", "ban"],
      [troll, "get fr33 bits here", "ban"],
      [troll, "you are an idiot", "delete"],
      [vip, "go to spam-site.xyz now", null],
      [mod, "THIS IS SHOUTING", null],
      [owner, "oh darn it", null], // the broadcaster is exempt by default
    ];
    for (const [speaker, text, action] of cases) {
      const before = owner.moderation.length;
      const logged = app.ovation.botModules.recentModeration(userId).length;
      await speaker.say(text);
      await app.platformPlugins.idle();
      const recent = app.ovation.botModules.recentModeration(userId);
      if (action === null) {
        expect(recent.length, text).toBe(logged);
        continue;
      }
      expect(recent[0], text).toMatchObject({ action, result: "done" });
      await waitFor(() => owner.moderation.length > before, 10_000, `the console told of ${action}`);
      expect(owner.moderation.at(-1), text).toMatchObject({ action });
    }
    await troll.say(`a long message ${"x".repeat(60)}`);
    await owner.heard("@troll, please follow the chat rules (length).");
    const timeout = owner.moderation.find((m) => m.action === "timeout");
    expect(timeout).toMatchObject({ user_platform_id: "console-troll", seconds: 30, reason: "auto-moderation: caps" });
    const view = (await call("GET", "/v1/bots/@me/moderation")).json();
    expect(view.availability[0]).toEqual({ plugin: "console", platform: "ovation", rules: expect.objectContaining({ caps: { actions: ["timeout"], available: true } }) });
    expect(view.recent[0]).toMatchObject({ rule: "length", action: "warn", result: "done" });
    expect(view.availability[1]).toMatchObject({ plugin: "sendonly", platform: "kick", rules: { caps: { actions: ["timeout"], available: false }, length: { actions: ["warn"], available: true } } });
    // On the platform without moderation the rule triggers but reports itself unavailable; warnings still go out.
    const channel = sendOnly.channels()[0]!;
    const kickEvent = (id: string, message: string) => ({
      id, type: "message" as const, timestamp: Date.now(), platform: "kick", channel, message, fragments: [{ type: "text" as const, text: message }], parent: null,
      user: { platform_id: "k-troll", username: "ktroll", avatar_url: "", color: null, badges: [] },
      attributes: { edited: false, accent: null, action: false, highlight: false },
    });
    expect(sendOnly.context?.emitChat(kickEvent("k1", "THIS IS SHOUTING ON KICK"))).toEqual({ accepted: true });
    await app.platformPlugins.idle();
    expect(app.ovation.botModules.recentModeration(userId)[0]).toMatchObject({ platform: "kick", rule: "caps", action: "timeout", result: "unavailable" });
    sendOnly.context?.emitChat(kickEvent("k2", `long ${"y".repeat(70)}`));
    await app.platformPlugins.idle();
    expect(sendOnly.sent.at(-1)).toBe("@ktroll, please follow the chat rules (length).");
    const bad = await call("PUT", "/v1/bots/@me/moderation", { bad_words: { patterns: ["(?=x)"] }, links: { allowed_domains: ["http://x.com"] } });
    expect(bad.statusCode).toBe(422);
    await call("PUT", "/v1/bots/@me/moderation", {});
  });

  it("system commands: !help lists visible commands; !sounds off reaches the browser sources", { timeout: 60_000 }, async () => {
    await call("POST", "/v1/bots/@me/commands", { command: "lurk", response: "enjoy the lurk" });
    const owner = await open();
    await owner.say("!help");
    await owner.heard("Commands: !lurk");
    const user = app.ovation.repos.users.get(userId)!;
    const source = await connect(url, { token });
    expect(await join(source, `${user.uuid}.ovation.${user.id}`)).toEqual({ joined: `${user.uuid}.ovation.${user.id}` });
    const switched = nextEvent(source, "overlay-settings");
    await owner.say("!sounds off");
    expect(await switched).toEqual({ visuals: true, effects: true, sounds: false });
    await owner.heard("Sounds are off now.");
    source.close();
  });

  it("goal bars move with notifications and counters, reach sockets live, and survive a restart with giveaway entries", { timeout: 60_000 }, async () => {
    const created = await call("POST", "/v1/goal-bars", { title: "Sub goal", kind: "subscribers", target: 10, start_value: 2, style: { bar_color: "#ff0066" } });
    expect(created.statusCode).toBe(201);
    const goal = created.json();
    expect(goal).toMatchObject({ goal_bar: { title: "Sub goal", kind: "subscribers" }, goalBar: { title: "Sub goal" }, progress: { current: 2, percent: 20 } });
    const counterGoal = (await call("POST", "/v1/goal-bars", { title: "Deaths", kind: "counter", counter: "deaths", target: 5 })).json();
    expect((await call("POST", "/v1/goal-bars", { title: "x", kind: "counter", target: 5 })).json().errors).toHaveProperty("counter");

    const user = app.ovation.repos.users.get(userId)!;
    const source = await connect(url, { token });
    await join(source, `${user.uuid}.ovation.${user.id}`);
    const moved = nextEvent(source, "goal-bar-updated");
    app.ovation.botModules.onNotification(userId, "gift-subscribe", "twitch", { amount: 3 }, null);
    expect(await moved).toMatchObject({ id: goal.id, progress: { current: 5, percent: 50 } });
    app.ovation.botModules.onNotification(userId, "follow", "twitch", {}, "f1");
    expect((await call("GET", `/v1/goal-bars/${goal.id}`)).json().progress.current).toBe(5);

    await call("POST", "/v1/bots/@me/commands", { command: "death", response: "{{ inc('counters', 'deaths', 1) }} deaths" });
    const owner = await open();
    const counterMoved = nextEvent(source, "goal-bar-updated");
    await owner.say("!death");
    await owner.heard("1 deaths");
    expect(await counterMoved).toMatchObject({ id: counterGoal.id, progress: { current: 1 } });
    // The counters API reaches the same counter, and its goal bar moves at once.
    const apiMoved = nextEvent(source, "goal-bar-updated");
    expect((await call("POST", "/v1/bots/@me/counters/values", [{ name: "deaths", value: 2, operation: "increment" }])).statusCode).toBe(200);
    expect(await apiMoved).toMatchObject({ id: counterGoal.id, progress: { current: 3 } });
    source.close();

    consoles.closeAll();
    await app.close();
    await start();
    expect((await call("GET", `/v1/goal-bars/${goal.id}`)).json().progress).toMatchObject({ current: 5, percent: 50 });
    expect((await call("GET", "/v1/bots/@me/giveaways")).json().data).toMatchObject({ status: "closed", entry_count: 2, winners: [expect.anything(), expect.anything()] });
    expect((await call("GET", "/v1/bots/@me/timers")).json().data).toHaveLength(1);
    expect(app.ovation.botModules.system.settings(String(userId))).toMatchObject({ sounds: false, language: "en" });
  });

  it("documents the module routes in OpenAPI, with goalBar marked deprecated beside goal_bar", async () => {
    const doc = (await app.inject({ method: "GET", url: "/openapi.json" })).json();
    for (const path of ["/v1/bots/{user}/timers", "/v1/bots/{user}/timers/{id}", "/v1/bots/{user}/giveaways", "/v1/bots/{user}/giveaways/draw", "/v1/bots/{user}/moderation", "/v1/goal-bars", "/v1/goal-bars/{id}/progress"]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
    expect(doc.components.schemas.GoalBarConfig.properties.goalBar.deprecated).toBe(true);
    expect(doc.components.schemas.GoalBarConfig.properties.goal_bar.deprecated).toBeUndefined();
  });

  it("checks who is asking: scopes and owners", async () => {
    const other = seedUser(app, "Other", ["chatbot:manage:commands"]);
    const noScope = await app.inject({ method: "GET", url: "/v1/bots/@me/timers", headers: { authorization: `Bearer ${other.token}` } });
    expect(noScope.json()).toMatchObject({ code: "OVATION_ERR_AUTH_MISSING_SCOPE" });
    const notMine = await call("GET", `/v1/bots/${other.userId}/giveaways`);
    expect(notMine.json()).toMatchObject({ code: "OVATION_ERR_AUTH_NOT_YOUR_USER" });
    const goals = await app.inject({ method: "GET", url: "/v1/goal-bars", headers: { authorization: `Bearer ${seedUser(app, "Third", ["widgets:manage"]).token}` } });
    expect(goals.json()).toEqual({ data: [] });
  });
});
