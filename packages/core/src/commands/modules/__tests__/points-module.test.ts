import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ChatEvent } from "../../../chat/event.js";
import { InMemoryKeyValueStore, POINTS_TABLE } from "../../key-value-store.js";
import type { KeyValueStore } from "../../key-value-store.js";
import { BotRuntime } from "../../runtime/bot-runtime.js";
import type { BotModuleContext } from "../../runtime/bot-module.js";
import { parsePointsCsv } from "../points/points-csv.js";
import { PointsModule, alertPoints } from "../points/points-module.js";
import { savePointsSettings } from "../points/points-ledger.js";
import { POINTS_CONFIG_TABLE, POINTS_ERROR_CODES, POINTS_LIMITS, POINTS_VIEWERS_TABLE, pointsSettingsSchema } from "../points/points-record.js";
import { QUOTES_ERROR_CODES } from "../quotes/quote-record.js";

/** Counts the store calls a tick makes: writes, and reads per table. */
class CountingStore extends InMemoryKeyValueStore {
  updates = 0;
  batches = 0;
  readonly reads = new Map<string, number>();
  override table(channel: string, table: string): Promise<Record<string, unknown>> {
    this.reads.set(table, (this.reads.get(table) ?? 0) + 1);
    return super.table(channel, table);
  }
  override field(channel: string, table: string, key: string): Promise<unknown> {
    this.reads.set(table, (this.reads.get(table) ?? 0) + 1);
    return super.field(channel, table, key);
  }
  override update(channel: string, table: string, key: string, change: (current: unknown) => unknown): Promise<unknown> {
    this.updates++;
    return super.update(channel, table, key, change);
  }
  override updateMany(channel: string, table: string, keys: readonly string[], change: (key: string, current: unknown) => unknown): Promise<void> {
    this.batches++;
    return super.updateMany(channel, table, keys, change);
  }
}

/** Calls `seen` with the table and keys of every batched write `store` makes from now on. */
function watchBatches(store: InMemoryKeyValueStore, seen: (table: string, keys: readonly string[]) => void): void {
  const batch = store.updateMany.bind(store);
  store.updateMany = (channel, table, keys, change) => (seen(table, keys), batch(channel, table, keys, change));
}

function context(store: KeyValueStore, clock: { now: number }, live: Set<string>): BotModuleContext {
  return {
    store,
    now: () => clock.now,
    language: () => "en",
    isLive: (channel) => live.has(channel),
    announce: async () => {},
    platformAction: async () => ({ result: "unavailable", reason: "none" }),
    publish: () => {},
    log: { info: () => {}, warn: () => {}, error: () => {} },
  };
}

function line(channel: string, user: string, message: string, badges: string[] = []): ChatEvent {
  return {
    id: `${user}-${message}`,
    type: "message",
    timestamp: 0,
    platform: "twitch",
    channel: { id: channel, platform_id: "room", username: "streamer", avatar_url: "" },
    message,
    fragments: [{ type: "text", text: message }],
    parent: null,
    user: { platform_id: user, username: user, avatar_url: "", color: null, badges: badges.map((type) => ({ type, text: null, id: type, count: null })) },
    attributes: { edited: false, accent: null, action: false, highlight: false },
  };
}

describe("the points module on its own", () => {
  it("pays watching chatters in one batched write per tick, subscribers with their bonus", async () => {
    const store = new CountingStore();
    const clock = { now: 0 };
    const live = new Set(["c1"]);
    const ctx = context(store, clock, live);
    const points = new PointsModule();
    const runtime = new BotRuntime(ctx, points.modules());
    for (let i = 0; i < 50; i++) await runtime.chat({ event: line("c1", `v${i}`, "hi", i < 10 ? ["subscriber"] : []), plugin: "twitch", channel: "c1" });
    await points.tick(ctx);
    const before = { updates: store.updates, batches: store.batches };
    clock.now += 60_000;
    const report = await points.tick(ctx);
    expect(report).toEqual({ channels: 1, viewers: 50, writes: 2 });
    // One batch for the balances; the names went with the first tick; one update for the history.
    expect(store.batches - before.batches).toBe(1);
    expect(store.updates - before.updates).toBe(1);
    const balances = await store.table("c1", POINTS_TABLE);
    expect(balances["twitch:v0"]).toBe(2);
    expect(balances["twitch:v49"]).toBe(1);
    live.delete("c1");
    clock.now += 120_000;
    expect((await points.tick(ctx)).viewers).toBe(0);
  });

  it("names a crowd in writes of at most nameBatch viewers, the event loop free between them", async () => {
    const store = new CountingStore();
    const clock = { now: 0 };
    const ctx = context(store, clock, new Set());
    const points = new PointsModule();
    const runtime = new BotRuntime(ctx, points.modules());
    const crowd = 2 * POINTS_LIMITS.nameBatch + 7;
    for (let i = 0; i < crowd; i++) await runtime.chat({ event: line("c1", `v${i}`, "hi"), plugin: "twitch", channel: "c1" });
    const sizes: number[] = [];
    watchBatches(store, (_table, keys) => sizes.push(keys.length));
    // A timer set before the tick runs between its first and second write, not after the last.
    let ranAfter = -1;
    setTimeout(() => (ranAfter = sizes.length), 0);
    const report = await points.tick(ctx);
    expect(sizes).toEqual([POINTS_LIMITS.nameBatch, POINTS_LIMITS.nameBatch, 7]);
    expect(report.writes).toBe(3);
    expect(ranAfter).toBe(1);
    expect(Object.keys(await store.table("c1", POINTS_VIEWERS_TABLE))).toHaveLength(crowd);
  });

  it("remembers the names it stored for the active viewers only: one who comes back after the window is named again", async () => {
    const store = new CountingStore();
    const clock = { now: 0 };
    const ctx = context(store, clock, new Set());
    const points = new PointsModule();
    const runtime = new BotRuntime(ctx, points.modules());
    const chat = (user: string) => runtime.chat({ event: line("c1", user, "hi"), plugin: "twitch", channel: "c1" });
    const named: string[][] = [];
    watchBatches(store, (table, keys) => table === POINTS_VIEWERS_TABLE && named.push([...keys]));
    for (let i = 0; i < 5; i++) await chat(`v${i}`);
    await points.tick(ctx);
    expect(named).toEqual([["twitch:v0", "twitch:v1", "twitch:v2", "twitch:v3", "twitch:v4"]]);
    // Still active: a name already stored is not written again.
    clock.now += 5 * 60_000;
    await chat("v0");
    await points.tick(ctx);
    expect(named).toHaveLength(1);
    // Past the 10 active minutes of v1-v4 (v0 spoke 5 minutes later): their names are forgotten at
    // the tick, so v1 coming back is named again; v0, still active, is not.
    clock.now += 6 * 60_000;
    await points.tick(ctx);
    await chat("v1");
    await chat("v0");
    await points.tick(ctx);
    expect(named).toEqual([["twitch:v0", "twitch:v1", "twitch:v2", "twitch:v3", "twitch:v4"], ["twitch:v1"]]);
    // A viewer named by an alert only (never seen in chat) is forgotten at the next tick too.
    named.length = 0;
    await savePointsSettings(store, "c2", pointsSettingsSchema.parse({ follow: 5 }));
    const follow = () => runtime.alert({ channel: "c2", type: "follow", platform: "twitch", platformUserId: "f1", username: "f1", data: {} });
    await follow();
    await follow();
    expect(named).toEqual([["twitch:f1"]]);
    await points.tick(ctx);
    await follow();
    expect(named).toEqual([["twitch:f1"], ["twitch:f1"]]);
  });

  it("holds each channel's settings: ticks do not read them, a save through the API or another node's change is paid on the next tick", async () => {
    const store = new CountingStore();
    const clock = { now: 0 };
    const ctx = context(store, clock, new Set(["c1"]));
    const points = new PointsModule();
    const runtime = new BotRuntime(ctx, points.modules());
    await runtime.load("c1");
    await runtime.chat({ event: line("c1", "ann", "hi"), plugin: "twitch", channel: "c1" });
    await points.tick(ctx); // going live starts the clock of watch time
    const settingsReads = () => store.reads.get(POINTS_CONFIG_TABLE) ?? 0;
    const before = settingsReads();
    const minute = async () => {
      clock.now += 60_000;
      await points.tick(ctx);
      return (await store.table("c1", POINTS_TABLE))["twitch:ann"];
    };
    expect(await minute()).toBe(1);
    expect(await minute()).toBe(2);
    expect(await minute()).toBe(3);
    expect(settingsReads() - before).toBe(0);

    // Saved through the module's API route: the next tick pays the new rate, still without a read.
    const put = points.commands.routes?.find((route) => route.method === "PUT" && route.path === "points/settings");
    await put?.handle({ channel: "c1", params: {}, query: {}, body: { per_minute: 5 }, context: ctx });
    expect(await minute()).toBe(8);
    expect(settingsReads() - before).toBe(0);

    // Saved by another node (straight into the shared store): held settings stay until the host says
    // the channel's store changed; then exactly one read, and the tick after pays the new rate.
    await savePointsSettings(store, "c1", pointsSettingsSchema.parse({ per_minute: 20 }));
    expect(await minute()).toBe(13);
    runtime.storeChanged("c1");
    expect(await minute()).toBe(33);
    expect(await minute()).toBe(53);
    expect(settingsReads() - before).toBe(1);
  });

  it("turns alerts into points by the settings", () => {
    const settings = pointsSettingsSchema.parse({ follow: 5, subscriber: 100, cheer_per_100: 10, tip_per_unit: 20 });
    expect(alertPoints(settings, { type: "follow", data: {} }).points).toBe(5);
    expect(alertPoints(settings, { type: "subscribe", data: { is_gift: true } }).points).toBe(0);
    expect(alertPoints(settings, { type: "gift-subscribe", data: { amount: 3 } }).points).toBe(300);
    expect(alertPoints(settings, { type: "cheer", data: { amount: 199 } }).points).toBe(19);
    expect(alertPoints(settings, { type: "donation", data: { amount: "2.5" } }).points).toBe(50);
    expect(alertPoints(settings, { type: "raid", data: { amount: 50 } }).points).toBe(0);
  });

  it("reads CSV with quotes, CRLF and a BOM, and names every bad line", () => {
    const ok = parsePointsCsv('\ufeffpoints,viewer,name\r\n10,twitch:1,"A, ""B"""\r\n\r\n', "set");
    expect(ok).toEqual({ ok: true, rows: [{ line: 2, viewer: "twitch:1", name: 'A, "B"', platform: null, points: 10 }] });
    const bad = parsePointsCsv('viewer,points\ntwitch:1,5\ntwitch:1,6\nkick:2,-1\nkick:3,"7\n', "set");
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.errors["line 3"]).toEqual(["viewer twitch:1 is on line 2 already"]);
      expect(bad.errors["line 4"]?.[0]).toContain("from 0 to");
      expect(bad.errors["line 5"]).toEqual(["a quoted field is not closed"]);
    }
    expect(parsePointsCsv("viewer,score\n", "set")).toEqual({ ok: false, errors: { "line 1": ['unknown column "score" (columns: viewer, name, platform, points)', 'the header has no "points" column'] } });
    expect(parsePointsCsv("", "set").ok).toBe(false);
  });

  it("documents every error code of the points and quotes routes", () => {
    const points = readFileSync(new URL("../../../../../../docs/points.md", import.meta.url), "utf8");
    const quotes = readFileSync(new URL("../../../../../../docs/quotes.md", import.meta.url), "utf8");
    for (const code of Object.values(POINTS_ERROR_CODES)) expect(points).toContain(code);
    for (const code of Object.values(QUOTES_ERROR_CODES)) expect(quotes).toContain(code);
  });
});
