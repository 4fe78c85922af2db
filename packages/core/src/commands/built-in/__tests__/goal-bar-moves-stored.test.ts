import { describe, expect, it } from "vitest";
import { InMemoryKeyValueStore } from "../../key-value-store.js";
import { KeyValueCounters } from "../../modules/counters/key-value-counters.js";
import type { GoalBarStore, StoredGoalBar } from "../../modules/goal-bars/goal-bar-records.js";
import type { BotModuleContext } from "../../runtime/bot-module.js";
import { GoalBarsBotModule } from "../index.js";

const CHANNEL = "chan-1";

/** Goal bars kept in memory whose `persisted` the test settles or fails; `events` is what happened, in order. */
function bot() {
  const events: string[] = [];
  const logged: string[] = [];
  const goals: { -readonly [K in keyof StoredGoalBar]: StoredGoalBar[K] }[] = [
    { id: 1, kind: "followers", counter: null, ends_at: null, current: 0 },
    { id: 2, kind: "counter", counter: "deaths", ends_at: null, current: 0 },
  ];
  let persisted: () => Promise<void> = async () => void events.push("stored");
  const store: GoalBarStore = {
    list: () => goals.map((g) => ({ ...g })),
    setCurrent(_channel, id, next) {
      const goal = goals.find((g) => g.id === id);
      if (goal === undefined) return null;
      goal.current = next(goal.current);
      return { ...goal };
    },
    channels: () => [CHANNEL],
    persisted: () => persisted(),
  };
  const module = new GoalBarsBotModule({ store, onUpdated: (_channel, goal) => void events.push(`told ${goal.id} ${goal.current}`) });
  const kv = new InMemoryKeyValueStore();
  const context = {
    store: kv,
    now: () => Date.parse("2026-11-23T12:00:00Z"),
    log: { info: () => {}, warn: () => {}, error: (_f: Record<string, unknown>, m: string) => void logged.push(m) },
  } as unknown as BotModuleContext;
  const follow = () => module.onAlert({ channel: CHANNEL, type: "follow", platform: "twitch", platformUserId: "f1", username: "fan", data: {} }, context);
  return { module, kv, context, events, logged, follow, setPersisted: (next: () => Promise<void>) => void (persisted = next) };
}

describe("goal bars moved by an alert or a counter are told to the browser sources only once stored", () => {
  it("a slow write: told strictly after it settles", async () => {
    const { events, follow, setPersisted } = bot();
    let release: () => void = () => {};
    setPersisted(() => new Promise<void>((resolve) => (release = () => (events.push("stored"), resolve()))));
    const handling = follow();
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual([]);
    release();
    await handling;
    expect(events).toEqual(["stored", "told 1 1"]);
  });

  it("a counter goal: the refresh returns at once (a chat answer does not wait), the browser sources hear of it after the write", async () => {
    const { module, kv, context, events, setPersisted } = bot();
    let release: () => void = () => {};
    setPersisted(() => new Promise<void>((resolve) => (release = () => (events.push("stored"), resolve()))));
    await new KeyValueCounters(kv).put(CHANNEL, { name: "deaths", keyword: null, value: 4, active: true });
    await module.refreshCounters(CHANNEL, context);
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual([]);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(["stored", "told 2 4"]);
  });

  it("a failed write: logged, never told; the next move that is stored is told", async () => {
    const { module, kv, context, events, logged, follow, setPersisted } = bot();
    setPersisted(async () => {
      throw new Error("EROFS: read-only file system");
    });
    await follow();
    await new KeyValueCounters(kv).put(CHANNEL, { name: "deaths", keyword: null, value: 4, active: true });
    await module.refreshCounters(CHANNEL, context);
    await new Promise((resolve) => setImmediate(resolve)); // the refresh does not wait for the write it tells after
    expect(events).toEqual([]);
    expect(logged).toEqual(["goal bar progress not stored; browser sources not told", "goal bar progress not stored; browser sources not told"]);
    setPersisted(async () => void events.push("stored"));
    await follow();
    expect(events).toEqual(["stored", "told 1 2"]);
  });
});
