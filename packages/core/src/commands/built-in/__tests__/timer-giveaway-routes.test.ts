import { afterAll, describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import { chatEvent } from "../../__tests__/chat-events.js";
import { ListTimerRecords } from "../../__tests__/list-timer-records.js";
import { CommandRuntime } from "../../command-runtime.js";
import { InMemoryKeyValueStore } from "../../key-value-store.js";
import { GiveawayModule } from "../../modules/giveaways/giveaway-module.js";
import { SystemCommands } from "../../modules/system/system-commands.js";
import { TimerModule } from "../../modules/timers/timer-module.js";
import { BotRouteError } from "../../runtime/bot-module.js";
import { TemplateSandbox } from "../../../templates/template-sandbox.js";
import type { BotModule, BotModuleContext } from "../../runtime/bot-module.js";
import { GiveawaysBotModule, TimersBotModule } from "../index.js";

const CHANNEL = "chan-1";
// Timer messages are compiled when saved (in this process); the sandbox would only start to render one.
const sandbox = new TemplateSandbox();
afterAll(() => sandbox.close());

/** The timers and giveaways modules with their routes, wired as an embedder would, without a server. */
function bot() {
  const clock = Date.parse("2026-11-23T12:00:00Z");
  const store = new InMemoryKeyValueStore();
  const commands = new CommandRuntime({ store, renderer: sandbox, now: () => clock });
  const system = new SystemCommands({ commands: (channel) => commands.commands(channel) });
  const records = new ListTimerRecords();
  const said: string[] = [];
  const logged: string[] = [];
  const timers = new TimersBotModule({ timers: new TimerModule({ templates: commands, isLive: (channel) => commands.isLive(channel), now: () => clock }), records });
  const giveaways = new GiveawaysBotModule({ giveaways: new GiveawayModule({ now: () => clock }) });
  const context: BotModuleContext = {
    store,
    now: () => clock,
    language: (channel) => system.language(channel),
    isLive: (channel) => commands.isLive(channel),
    announce: async (_channel, text) => void said.push(text),
    platformAction: async () => ({ result: "unavailable", reason: "no platform here" }),
    publish: () => {},
    log: { info: () => {}, warn: (_f, m) => void logged.push(m), error: (_f, m) => void logged.push(m) },
  };
  /** Calls a module's route as the host does: params and body through the route's schemas first. */
  const call = async (module: BotModule, method: string, path: string, body?: unknown, params: Record<string, string> = {}) => {
    const route = module.routes?.find((r) => r.method === method && r.path === path);
    if (route === undefined) throw new Error(`no route ${method} ${path}`);
    const parse = (schema: ZodType | undefined, value: unknown) => (schema === undefined ? value : schema.parse(value));
    return route.handle({ channel: CHANNEL, params: parse(route.params, params) as Record<string, string>, query: {}, body: parse(route.body, body), context });
  };
  const refused = (work: Promise<unknown>) => work.then(
    (answer) => {
      throw new Error(`expected a BotRouteError, got ${JSON.stringify(answer)}`);
    },
    (error: unknown) => {
      if (!(error instanceof BotRouteError)) throw error;
      return { status: error.status, code: error.code, message: error.message, errors: error.errors, details: error.details };
    },
  );
  return { commands, records, timers, giveaways, said, logged, call, refused };
}

describe("the timer and giveaway routes, declared by their modules (no server)", () => {
  it("timers: stored through the TimerRecords port, loaded into the module at once, names unique, at most 50", async () => {
    const { records, timers, commands, call, refused } = bot();
    const created = (await call(timers, "POST", "timers", { name: "socials", message: "Hi {{ event.channel.username }}", interval_minutes: 5 })) as { id: number; status: unknown[]; live: boolean };
    expect(created).toMatchObject({ id: 1, name: "socials", interval_minutes: 5, min_chat_lines: 5, platforms: [], send_as: "say", enabled: true, status: [], live: false });
    expect(records.list(CHANNEL).map((r) => r.name)).toEqual(["socials"]);
    expect(timers.timers.status(CHANNEL).map((t) => t.name)).toEqual(["socials"]); // loaded without a restart

    timers.onChat({ event: chatEvent("hello"), plugin: "twitch", channel: CHANNEL });
    commands.setLive(CHANNEL, true);
    const read = (await call(timers, "GET", "timers/:id", undefined, { id: "1" })) as { status: { platform: string; lines: number }[]; live: boolean };
    expect(read.status).toEqual([{ platform: "twitch", lines: 1, last_post_at: expect.any(Number), next_post_at: expect.any(Number) }]);
    expect(read.live).toBe(true);

    expect(await refused(call(timers, "POST", "timers", { name: "SOCIALS", message: "again" }))).toEqual({
      status: 422,
      code: "OVATION_ERR_TIMERS_NAME_TAKEN",
      message: "The name has already been taken.",
      errors: { name: ["The name has already been taken: another timer is named SOCIALS."] },
      details: {},
    });
    const syntax = await refused(call(timers, "POST", "timers", { name: "broken", message: "{% if %}" }));
    expect(syntax).toMatchObject({ status: 422, code: "OVATION_ERR_HTTP_VALIDATION", details: { field: "message", line: 1, column: 7 } });
    expect(syntax.errors?.["message"]?.[0]).toMatch(/^The message field is invalid: Template syntax error/);
    expect(await refused(call(timers, "PUT", "timers/:id", { name: "a", message: "b" }, { id: "99" }))).toMatchObject({ status: 404, code: "OVATION_ERR_TIMERS_NOT_FOUND", message: "No such timer." });
    expect(records.list(CHANNEL)).toHaveLength(1); // nothing refused was stored

    const replaced = await call(timers, "PUT", "timers/:id", { name: "Socials", message: "Follow!", send_as: "announce" }, { id: "1" });
    expect(replaced).toMatchObject({ id: 1, name: "Socials", message: "Follow!", send_as: "announce" });
    for (let i = 2; i <= 50; i++) await call(timers, "POST", "timers", { name: `t${i}`, message: "m" });
    expect(await refused(call(timers, "POST", "timers", { name: "one-more", message: "m" }))).toMatchObject({
      status: 422,
      code: "OVATION_ERR_HTTP_VALIDATION",
      errors: { name: ["A bot has at most 50 timers."] },
    });
    await call(timers, "DELETE", "timers/:id", undefined, { id: "1" });
    expect(timers.timers.status(CHANNEL).map((t) => t.name)).not.toContain("Socials");
    expect(await refused(call(timers, "DELETE", "timers/:id", undefined, { id: "1" }))).toMatchObject({ status: 404, code: "OVATION_ERR_TIMERS_NOT_FOUND" });
  });

  it("timers: a stored timer that no longer compiles is logged and skipped when loading", () => {
    const { records, timers, logged } = bot();
    records.create(CHANNEL, { name: "good", message: "fine", interval_minutes: 5, min_chat_lines: 0, platforms: [], send_as: "say", enabled: true });
    records.create(CHANNEL, { name: "bad", message: "{% if %}", interval_minutes: 5, min_chat_lines: 0, platforms: [], send_as: "say", enabled: true });
    timers.reload(CHANNEL, { info: () => {}, warn: () => {}, error: (_f, m) => void logged.push(m) });
    expect(timers.timers.status(CHANNEL).map((t) => t.name)).toEqual(["good"]);
    expect(logged).toEqual(["stored timer could not be loaded; skipped"]);
  });

  it("giveaways: open, a second open is a 409 saying why, entries from chat, close, draw and reroll, each announced", async () => {
    const { giveaways, said, call, refused } = bot();
    expect(await call(giveaways, "GET", "giveaways")).toEqual({ data: null });
    expect(await refused(call(giveaways, "POST", "giveaways/close"))).toEqual({ status: 409, code: "OVATION_ERR_GIVEAWAYS_STATE", message: "No giveaway is open.", errors: undefined, details: {} });
    const opened = await call(giveaways, "POST", "giveaways", { keyword: "!win", subscriber_weight: 2 });
    expect(opened).toMatchObject({ status: "open", entry_count: 0, ticket_count: 0, settings: { keyword: "!win", subscriber_weight: 2 } });
    expect(said).toEqual(["A giveaway is open: type !win to enter!"]);
    expect(await refused(call(giveaways, "POST", "giveaways", { keyword: "!win" }))).toMatchObject({ status: 409, message: "A giveaway is already open: close it first." });

    await giveaways.onChat({ event: chatEvent("!win", { user: "s1", username: "sub1", badges: ["subscriber"] }), plugin: "twitch", channel: CHANNEL });
    await giveaways.onChat({ event: chatEvent("!win", { user: "v1", username: "viewer1" }), plugin: "twitch", channel: CHANNEL });
    expect(await call(giveaways, "POST", "giveaways/close")).toMatchObject({ status: "closed", entry_count: 2, ticket_count: 3 });
    expect(said.at(-1)).toBe("The giveaway is closed with 2 entries.");

    const drawn = (await call(giveaways, "POST", "giveaways/draw", undefined)) as { winners: { username: string; user_platform_id: string }[]; giveaway: { winners: unknown[] } };
    expect(drawn.winners).toHaveLength(1);
    expect(drawn.giveaway.winners).toHaveLength(1);
    const first = drawn.winners[0]!;
    expect(said.at(-1)).toContain(`@${first.username}`);
    const rerolled = (await call(giveaways, "POST", "giveaways/reroll", { platform: "twitch", user_platform_id: first.user_platform_id })) as { winner: { username: string }; giveaway: { winners: { rerolled: boolean }[] } };
    expect(rerolled.winner.username).not.toBe(first.username);
    expect(rerolled.giveaway.winners.map((w) => w.rerolled)).toEqual([true, false]);
    expect(await refused(call(giveaways, "POST", "giveaways/draw", { count: 1 }))).toMatchObject({ status: 409, message: "Every entrant has been drawn already." });
  });
});
