// Loyalty points accrual (issue 27): one points tick paying 10,000 chatters who were active in the
// last minutes, (1) all on one channel and (2) spread over 1,000 channels (10 each), through the
// server's own key-value store (the embedded store in a temporary directory: every write changes the
// store's data and is persisted in the background). Per tick: the time, and the store writes made
// (calls of `update`/`updateMany`). Beside each, from the same run and in alternating rounds:
//   - the floor: the bare `KeyValueStore.update` loop adding one point to each of the same 10,000
//     wallets (what a tick without batching costs at the least: 10,000 awaited writes);
//   - the same tick on a store without `updateMany` (the fallback of `updateFields`).
// Each side ends when the store has persisted its changes, so the timings include the write to disk.
// Run: npm run bench -- points   (BENCH_ROUNDS=n for more rounds; BENCH_POINTS_VIEWERS to change 10,000).
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { PointsModule, POINTS_TABLE, storedNumber } from "@ovation/core";
import type { BotModuleContext, ChatEvent, KeyValueStore } from "@ovation/core";
import { alternate, benchRounds, report, spreadOf } from "../../../scripts/bench-figures.js";
import { StoreKeyValueStore } from "../src/store/key-value.js";
import { Store } from "../src/store/store.js";

const VIEWERS = Number(process.env["BENCH_POINTS_VIEWERS"] ?? 10_000);
const CHANNELS = 1_000;

/** One round of a side: time until the tick resolved, until the store persisted it, writes, wallets paid. */
interface Round {
  ms: number;
  durableMs: number;
  writes: number;
  paid: number;
}

/** Counts the writes a side makes (each `update` or `updateMany` call is one). */
class CountingStore implements KeyValueStore {
  writes = 0;
  constructor(
    private readonly inner: StoreKeyValueStore,
    batch: boolean,
  ) {
    if (!batch) delete this.updateMany;
  }
  updateMany?: KeyValueStore["updateMany"] = (channel, table, keys, change) => {
    this.writes++;
    return this.inner.updateMany(channel, table, keys, change);
  };
  table(channel: string, table: string) {
    return this.inner.table(channel, table);
  }
  field(channel: string, table: string, key: string) {
    return this.inner.field(channel, table, key);
  }
  update(channel: string, table: string, key: string, change: (current: unknown) => unknown) {
    this.writes++;
    return this.inner.update(channel, table, key, change);
  }
}

function chatLine(channel: string, viewer: string, subscriber: boolean): ChatEvent {
  return {
    id: `${channel}-${viewer}`,
    type: "message",
    timestamp: 0,
    platform: "twitch",
    channel: { id: channel, platform_id: `room-${channel}`, username: "streamer", avatar_url: "" },
    message: "hello",
    fragments: [{ type: "text", text: "hello" }],
    parent: null,
    user: { platform_id: viewer, username: viewer, avatar_url: "", color: null, badges: subscriber ? [{ type: "subscriber", id: "subscriber", text: null, count: null }] : [] },
    attributes: { edited: false, accent: null, action: false, highlight: false },
  };
}

/** A points module whose `channels` hold `VIEWERS` active chatters in all, on `store`, with a clock of its own. */
async function prepared(store: CountingStore, persisted: () => Promise<void>, channels: readonly string[]) {
  const clock = { now: 0 };
  const ctx: BotModuleContext = {
    store,
    now: () => clock.now,
    language: () => "en",
    isLive: () => true,
    announce: async () => {},
    platformAction: async () => ({ result: "unavailable", reason: "bench" }),
    publish: () => {},
    log: pino({ level: "silent" }),
  };
  const points = new PointsModule();
  const [observer] = points.modules();
  const perChannel = VIEWERS / channels.length;
  const lines = channels.flatMap((channel) => Array.from({ length: perChannel }, (_, i) => ({ event: chatLine(channel, `v${i}`, i % 10 === 0), plugin: "twitch", channel })));
  const seeAll = async () => {
    for (const line of lines) await observer?.onChat?.(line, ctx);
  };
  await seeAll();
  await points.tick(ctx); // starts the watch clock and stores the names
  await persisted();
  return {
    /** One tick a minute later, with every chatter seen again just before (outside the timing). */
    async tick(): Promise<Round> {
      clock.now += 60_000;
      await seeAll();
      const before = store.writes;
      const begin = performance.now();
      const done = await points.tick(ctx);
      const ms = performance.now() - begin;
      await persisted();
      return { ms, durableMs: performance.now() - begin, writes: store.writes - before, paid: done.viewers };
    },
    wallets: lines.map((line) => ({ channel: line.channel, wallet: `twitch:${line.event.user.platform_id}` })),
  };
}

async function scenario(name: string, channels: readonly string[], rounds: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "ovation-points-bench-"));
  const store = await Store.open(dir, { logger: pino({ level: "silent" }) });
  try {
    const kv = new StoreKeyValueStore(store);
    const batched = new CountingStore(kv, true);
    const fallback = new CountingStore(kv, false);
    const floorStore = new CountingStore(kv, false);
    const persisted = () => store.persisted();
    const ours = await prepared(batched, persisted, channels);
    // The fallback side uses other channels of the same store, so both sides pay the same persistence.
    const theirs = await prepared(fallback, persisted, channels.map((c) => `${c}-fallback`));
    // The floor adds a point to the very wallets the batched side pays, so both persist the same documents.
    const floor = async (): Promise<Round> => {
      const before = floorStore.writes;
      const begin = performance.now();
      for (const { channel, wallet } of ours.wallets) await floorStore.update(channel, POINTS_TABLE, wallet, (current) => storedNumber(current) + 1);
      const ms = performance.now() - begin;
      await store.persisted();
      return { ms, durableMs: performance.now() - begin, writes: floorStore.writes - before, paid: ours.wallets.length };
    };
    const runs = await alternate(rounds, { batched: () => ours.tick(), fallback: () => theirs.tick(), floor });
    const paid = runs.batched[0]?.paid ?? 0;
    if (paid !== VIEWERS) throw new Error(`a tick paid ${paid} viewers, expected ${VIEWERS}`);
    console.log(`\n${name}: ${VIEWERS.toLocaleString("en-US")} active chatters on ${channels.length.toLocaleString("en-US")} channel(s)`);
    const id = channels.length === 1 ? "one" : "many";
    const figure = (side: "batched" | "fallback" | "floor", what: "ms" | "durableMs" | "writes", label: string) =>
      report({ id: `points.${id}.${side}.${what}`, label, unit: what === "writes" ? "writes" : "ms", rounds, value: spreadOf(runs[side].map((r) => r[what])), better: "lower" }, "  ");
    for (const [side, name] of [
      ["batched", "points tick (batched writes)"],
      ["fallback", "points tick, store without updateMany"],
      ["floor", "floor: bare KeyValueStore.update loop"],
    ] as const) {
      figure(side, "ms", `${name}: time`);
      figure(side, "durableMs", `${name}: time until persisted`);
      figure(side, "writes", `${name}: store writes`);
    }
    const ratio = spreadOf(runs.batched.map((r, i) => r.ms / (runs.floor[i]?.ms ?? Number.NaN)));
    report({ id: `points.${id}.ratio`, label: "batched tick time / floor time (same round)", unit: "x", rounds, value: ratio, better: "lower" }, "  ");
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const rounds = benchRounds();
console.log(`points accrual bench, load average ${loadavg().map((l) => l.toFixed(2)).join(" ")} (a loaded machine slows every side alike)`);
await scenario("one channel", ["1"], rounds);
await scenario("across channels", Array.from({ length: CHANNELS }, (_, i) => String(i + 1)), rounds);
