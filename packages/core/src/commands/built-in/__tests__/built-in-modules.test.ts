import { describe, expect, it } from "vitest";
import type { ChatChannel } from "../../../chat/event.js";
import type { ModerationTarget } from "../../../plugins/contract.js";
import { chatEvent } from "../../__tests__/chat-events.js";
import { ListTimerRecords } from "../../__tests__/list-timer-records.js";
import { CommandRuntime } from "../../command-runtime.js";
import { InMemoryKeyValueStore } from "../../key-value-store.js";
import { KeyValueCounters } from "../../modules/counters/key-value-counters.js";
import { GiveawayModule } from "../../modules/giveaways/giveaway-module.js";
import { ModerationModule } from "../../modules/moderation/moderation-module.js";
import { SystemCommands } from "../../modules/system/system-commands.js";
import { TimerModule } from "../../modules/timers/timer-module.js";
import { BotRuntime } from "../../runtime/bot-runtime.js";
import type { BotModuleContext } from "../../runtime/bot-module.js";
import { CustomCommandsBotModule, GiveawaysBotModule, GoalBarsBotModule, ModerationBotModule, SystemBotModule, TimersBotModule } from "../index.js";
import type { GoalBarStore, StoredGoalBar } from "../index.js";

const CHANNEL = "chan-1";

/** A platform's moderation part that records what it was asked to do. */
class RecordingTarget implements ModerationTarget {
  readonly actions: string[] = [];
  support() {
    return { deleteMessage: true, timeout: true, ban: false };
  }
  async deleteMessage(_channel: ChatChannel, messageId: string) {
    this.actions.push(`delete ${messageId}`);
  }
  async timeout(_channel: ChatChannel, user: string, seconds: number, reason: string | null) {
    this.actions.push(`timeout ${user} ${seconds}s (${reason})`);
  }
  async ban(_channel: ChatChannel, user: string) {
    this.actions.push(`ban ${user}`);
  }
}

/** The embedder's goal bars: kept in a list, as its own storage would. */
class ListGoalBars implements GoalBarStore {
  readonly goals: (StoredGoalBar & { channel: string })[] = [];
  list(channel: string) {
    return this.goals.filter((g) => g.channel === channel);
  }
  setCurrent(channel: string, id: number, next: (current: number) => number) {
    const index = this.goals.findIndex((g) => g.channel === channel && g.id === id);
    const goal = this.goals[index];
    if (goal === undefined) return null;
    this.goals[index] = { ...goal, current: next(goal.current) };
    return this.goals[index];
  }
  channels() {
    return new Set(this.goals.map((g) => g.channel));
  }
}

/** Everything an embedder wires: an in-memory store, a clock, what goes out. */
function embedder() {
  let clock = Date.parse("2026-11-23T12:00:00Z");
  const store = new InMemoryKeyValueStore();
  const said: { channel: string; text: string; platform: string | undefined; sendAs: string | undefined }[] = [];
  const moved: { id: number; current: number }[] = [];
  const logged: string[] = [];
  const live = new Set<string>();
  const commands = new CommandRuntime({ store, now: () => clock });
  const target = new RecordingTarget();
  const goalBars = new ListGoalBars();
  const system = new SystemCommands({ commands: (channel) => commands.commands(channel) });
  const stored = {
    moderation: { caps: { enabled: true, min_length: 8, max_percent: 60, action: { type: "timeout", seconds: 30 } }, length: { enabled: true, max_length: 40, action: { type: "warn" } } },
    timers: [{ name: "socials", message: "Follow me elsewhere!", interval_minutes: 5, min_chat_lines: 2, send_as: "announce" as const }],
  };
  const goals = new GoalBarsBotModule({ store: goalBars, onUpdated: (_channel, goal) => moved.push({ id: goal.id, current: goal.current }) });
  const modules = {
    moderation: new ModerationBotModule({ moderation: new ModerationModule(), target: () => target, stored: () => new ModerationModule().prepare(stored.moderation).settings }),
    timers: new TimersBotModule({ timers: new TimerModule({ templates: commands, isLive: (channel) => live.has(channel), now: () => clock }), records: new ListTimerRecords(CHANNEL, stored.timers) }),
    goals,
    giveaways: new GiveawaysBotModule({ giveaways: new GiveawayModule({ now: () => clock }) }),
    system: new SystemBotModule({ system }),
    commands: new CustomCommandsBotModule({ runtime: commands, afterChat: (channel, ctx) => goals.refreshCounters(channel, ctx) }),
  };
  const context: BotModuleContext = {
    store,
    now: () => clock,
    language: (channel) => system.language(channel),
    isLive: (channel) => live.has(channel),
    announce: async (channel, text, platform, sendAs) => void said.push({ channel, text, platform, sendAs }),
    platformAction: async () => ({ result: "unavailable", reason: "no platform here" }),
    publish: () => {},
    log: { info: () => {}, warn: (_f, m) => void logged.push(m), error: (_f, m) => void logged.push(m) },
  };
  const runtime = new BotRuntime(context, [modules.moderation, modules.timers, modules.goals, modules.giveaways, modules.system, modules.commands]);
  const chat = (message: string, options: { user?: string; username?: string; badges?: string[] } = {}) =>
    runtime.chat({ event: chatEvent(message, { channel: CHANNEL, ...options }), plugin: "twitch", channel: CHANNEL });
  return { runtime, modules, commands, store, target, goalBars, said, moved, logged, live, advance: (ms: number) => (clock += ms), chat };
}

describe("the built-in modules through BotRuntime, without a server", () => {
  it("loads each module's stored data synchronously when the channel loads", () => {
    const bot = embedder();
    void bot.runtime.load(CHANNEL);
    expect(bot.modules.moderation.moderation.settings(CHANNEL)?.caps.enabled).toBe(true);
    expect(bot.modules.timers.timers.status(CHANNEL).map((t) => t.name)).toEqual(["socials"]);
  });

  it("guards first: a line that breaks a rule is enforced on the platform, remembered, and reaches nothing else", async () => {
    const bot = embedder();
    await bot.runtime.load(CHANNEL);
    bot.commands.setCommands(CHANNEL, [{ command: "shout", response: "no shouting", global_cooldown: 0 }]);
    expect(await bot.chat("!SHOUT AT EVERYONE NOW", { user: "troll", username: "troll" })).toEqual({ handled: true, answers: [] });
    expect(bot.target.actions).toEqual(["timeout troll 30s (auto-moderation: caps)"]);
    expect(bot.modules.moderation.recent(CHANNEL)).toEqual([expect.objectContaining({ rule: "caps", action: "timeout", result: "done", username: "troll" })]);
    expect(bot.modules.timers.timers.status(CHANNEL)[0]?.platforms).toEqual([]); // not counted for the timers

    const warned = await bot.chat(`a long message ${"x".repeat(40)}`, { username: "rambler" });
    expect(warned).toEqual({ handled: true, answers: [{ text: "@rambler, please follow the chat rules (length).", send_as: "say" }] });
    expect(bot.modules.moderation.recent(CHANNEL).map((o) => o.rule)).toEqual(["length", "caps"]);
  });

  it("runs the command modules in order: giveaway keyword, system commands, then custom commands and counter keywords", async () => {
    const bot = embedder();
    await bot.runtime.load(CHANNEL);
    bot.commands.setCommands(CHANNEL, [
      { command: "win", response: "the custom !win", global_cooldown: 0 },
      { command: "lurk", response: "enjoy the lurk", global_cooldown: 0 },
    ]);
    // No giveaway open: the custom command answers.
    expect(await bot.chat("!win")).toEqual({ handled: true, answers: [{ text: "the custom !win", send_as: "say", reply_to: null }] });
    bot.modules.giveaways.giveaways.open(CHANNEL, { keyword: "!win" });
    expect(await bot.chat("!win", { user: "v1", username: "viewer1" })).toEqual({ handled: true, answers: [] });
    expect(bot.modules.giveaways.giveaways.get(CHANNEL)?.entries.map((e) => e.username)).toEqual(["viewer1"]);

    expect((await bot.chat("!help")).answers[0]?.text).toBe("Commands: !lurk, !win");
    expect((await bot.chat("!language de", { badges: ["moderator"] })).answers[0]?.text).toBe("Ich spreche jetzt Deutsch.");
    await bot.modules.giveaways.announce(CHANNEL, bot.modules.giveaways.giveaways.close(CHANNEL), "closed", [], bot.runtime.context);
    expect(bot.said.at(-1)).toEqual({ channel: CHANNEL, text: "Das Gewinnspiel ist mit 1 Teilnahmen geschlossen.", platform: undefined, sendAs: undefined });

    await new KeyValueCounters(bot.store).put(CHANNEL, { name: "deaths", keyword: "deaths", value: 4, active: true });
    bot.goalBars.goals.push({ channel: CHANNEL, id: 7, kind: "counter", counter: "deaths", ends_at: null, current: 0 });
    expect((await bot.chat("!deaths +", { badges: ["moderator"] })).answers).toEqual([{ text: "deaths: 5", send_as: "say", reply_to: null }]);
    expect((await bot.chat("!deaths +")).answers).toEqual([{ text: "deaths: 5", send_as: "say", reply_to: null }]); // viewers only see it
    expect(bot.moved).toEqual([{ id: 7, current: 5 }]);
    expect(await bot.chat("just chatting")).toEqual({ handled: false, answers: [] });
  });

  it("alerts move goal bars until they end; the tick posts due timers only while live, as the timer says", async () => {
    const bot = embedder();
    await bot.runtime.load(CHANNEL);
    bot.goalBars.goals.push(
      { channel: CHANNEL, id: 1, kind: "subscribers", counter: null, ends_at: null, current: 2 },
      { channel: CHANNEL, id: 2, kind: "followers", counter: null, ends_at: "2026-11-01T00:00:00Z", current: 0 },
    );
    void bot.runtime.alert({ channel: CHANNEL, type: "gift-subscribe", platform: "twitch", platformUserId: null, username: null, data: { amount: 3 } });
    void bot.runtime.alert({ channel: CHANNEL, type: "follow", platform: "twitch", platformUserId: "f1", username: "fan", data: {} });
    expect(bot.moved).toEqual([{ id: 1, current: 5 }]); // the followers goal has ended

    await bot.chat("hello");
    await bot.chat("anyone here?");
    bot.advance(5 * 60_000);
    await bot.runtime.tick();
    expect(bot.said).toEqual([]); // offline
    bot.live.add(CHANNEL);
    await bot.runtime.tick();
    expect(bot.said).toEqual([{ channel: CHANNEL, text: "Follow me elsewhere!", platform: "twitch", sendAs: "announce" }]);
    await bot.runtime.tick();
    expect(bot.said).toHaveLength(1); // its clock and line count start again
  });
});
