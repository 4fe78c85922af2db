// A server process for giveaway.bench.ts: Ovation on a fresh store (embedded files, or PostgreSQL
// when argument 2 is a URL) with a quiet user (who POSTs alerts) and a streamer whose giveaway is
// open. On request it feeds `!join` chat entries (as Kick webhooks or any chat plugin deliver them)
// at a steady rate, timing each entry until it is durable, or fills the giveaway fast to a count.
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { PerformanceObserver, monitorEventLoopDelay } from "node:perf_hooks";
import pg from "pg";
import { pino } from "pino";
import { buildDefaultAlertSet } from "@ovation/core";
import type { ChatEvent } from "@ovation/core";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";

type Message = { type: "feed"; count: number; rate: number } | { type: "fill"; to: number } | { type: "stop" };

const dir = mkdtempSync(join(tmpdir(), "ovation-giveaway-bench-"));
const config = loadConfig({ OVATION_DATA_DIR: dir, OVATION_DATABASE_URL: process.argv[2], HOST: "127.0.0.1", PORT: "0", OVATION_RATE_LIMIT_PER_MINUTE: "100000000", OVATION_LOG_LEVEL: "silent" });
const app = await buildApp({ config, logger: pino({ level: "silent" }) });
const { repos, botModules } = app.ovation;

const quiet = repos.users.create({ name: "quiet" });
const { id: _i, user_id: _u, active: _a, ...set } = buildDefaultAlertSet({ id: 1, user_id: quiet.id });
repos.alertSets.create({ user_id: quiet.id, name: "bench", version: 4, config: set });
const token = repos.tokens.create({ user_id: quiet.id, name: "bench", scopes: ["alerts:manage"] }).token;
const streamer = repos.users.create({ name: "streamer" });
botModules.giveaways.open(String(streamer.id), { keyword: "!join", announce: false });

/**
 * OVATION_BENCH_DIAG=1: what the server does per entry and per POST, printed at stop: statements
 * sent to PostgreSQL (count, parameter bytes, time by kind), garbage-collection pauses, event-loop
 * delay, and how long the quiet POSTs waited in `persisted()`.
 */
const diag = process.env["OVATION_BENCH_DIAG"] === "1";
interface Kind { count: number; bytes: number; ms: number[] }
const kinds = new Map<string, Kind>();
const gcPauses: number[] = [];
const postWaits: number[] = [];
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
const slow: string[] = [];
let feedStart = 0;
let measuring = false;
if (diag) {
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string; values?: unknown[] };
    const text = typeof first === "string" ? first : (first.text ?? "");
    const values = (typeof first === "string" ? args[1] : first.values) as unknown[] | undefined;
    const kind = text.trim().split(/\s+/).slice(0, 3).join(" ").slice(0, 40);
    const begin = performance.now();
    const result = query.apply(this, args);
    if (measuring && performance.now() - begin > 10) slow.push(`query ${kind} sync ${(performance.now() - begin).toFixed(0)} ms at ${(begin - feedStart).toFixed(0)}`);
    if (measuring && result instanceof Promise) {
      const k = kinds.get(kind) ?? { count: 0, bytes: 0, ms: [] };
      kinds.set(kind, k);
      k.count++;
      k.bytes += text.length + (values ?? []).reduce<number>((n, v) => n + (typeof v === "string" ? v.length : JSON.stringify(v ?? null).length), 0);
      const size = text.length + (values ?? []).reduce<number>((n, v) => n + (typeof v === "string" ? v.length : JSON.stringify(v ?? null).length), 0);
      if (size > 100_000 && process.env["OVATION_BENCH_DIAG_BIG"] === "1") console.error(`big statement ${size} B: ${text.slice(0, 120)} ${JSON.stringify(values?.map((v) => (typeof v === "string" ? v.slice(0, 80) : v)))}`);
      void result.then(() => k.ms.push(performance.now() - begin), () => undefined);
    }
    return result;
  } as typeof pg.Client.prototype.query;
  new PerformanceObserver((list) => {
    if (measuring) for (const e of list.getEntries()) gcPauses.push(e.duration);
  }).observe({ entryTypes: ["gc"] });
  const update = repos.store.update.bind(repos.store);
  repos.store.update = ((fn: Parameters<typeof update>[0], touched?: Parameters<typeof update>[1]) => {
    const begin = performance.now();
    try {
      return update(fn, touched);
    } finally {
      const took = performance.now() - begin;
      if (measuring && took > 10) slow.push(`update ${JSON.stringify(touched ?? "?")} ${took.toFixed(0)} ms at ${(performance.now() - feedStart).toFixed(0)}`);
    }
  }) as typeof update;
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (measuring && now - last > 100) slow.push(`loop stalled ${(now - last).toFixed(0)} ms until ${(now - feedStart).toFixed(0)}`);
    last = now;
  }, 5).unref();
  // Only the route's calls are timed (`alertLogsPersisted`, or `persisted` before the store had it): feed() below holds the unpatched one.
  const timed = (wait: () => Promise<void>) => () => {
    const begin = performance.now();
    return wait().finally(() => measuring && postWaits.push(performance.now() - begin));
  };
  const store = repos.store as { persisted(): Promise<void>; alertLogsPersisted?: () => Promise<void> };
  if (store.alertLogsPersisted) store.alertLogsPersisted = timed(store.alertLogsPersisted.bind(store));
  else store.persisted = timed(store.persisted.bind(store));
}
const storePersisted = (): Promise<void> => Object.getPrototypeOf(repos.store).persisted.call(repos.store) as Promise<void>;
const q = (values: number[], at: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(at * values.length))] ?? NaN;
function diagReport(label: string): void {
  if (!diag) return;
  const lines = [`diag ${label}: heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB; POST persisted() wait p50 ${q(postWaits, 0.5).toFixed(1)} p99 ${q(postWaits, 0.99).toFixed(1)} max ${Math.max(...postWaits).toFixed(1)} ms (${postWaits.length})`];
  lines.push(`  gc: ${gcPauses.length} pauses, total ${gcPauses.reduce((a, b) => a + b, 0).toFixed(0)} ms, p99 ${q(gcPauses, 0.99).toFixed(1)} max ${Math.max(0, ...gcPauses).toFixed(1)} ms; event-loop delay p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} max ${(loopDelay.max / 1e6).toFixed(1)} ms`);
  for (const [kind, k] of [...kinds].sort((a, b) => b[1].count - a[1].count)) {
    lines.push(`  ${kind.padEnd(40)} ${String(k.count).padStart(6)} stmts, ${(k.bytes / k.count).toFixed(0).padStart(6)} B each, p50 ${q(k.ms, 0.5).toFixed(2)} p99 ${q(k.ms, 0.99).toFixed(2)} max ${Math.max(0, ...k.ms).toFixed(1)} ms`);
  }
  lines.push(...slow.map((l) => `  slow: ${l}`));
  console.error(lines.join("\n"));
}

let viewers = 0;
function joinEvent(): ChatEvent {
  viewers++;
  return {
    id: `m-${viewers}`,
    type: "message",
    timestamp: Date.now(),
    platform: "kick",
    user: { platform_id: `viewer-${viewers}`, username: `viewer${viewers}`, avatar_url: "", color: null, badges: [] },
    channel: { id: String(streamer.id), platform_id: "1", username: "streamer", avatar_url: "" },
    message: "!join",
    fragments: [{ type: "text", text: "!join" }],
    parent: null,
    attributes: { edited: false, accent: null, action: false, highlight: false },
  };
}

async function enter(): Promise<void> {
  await botModules.handleChat(joinEvent(), "console");
}

async function feed(count: number, rate: number): Promise<number[]> {
  const times: number[] = [];
  const spacing = 1_000 / rate;
  for (let i = 0; i < count; i++) {
    const begin = performance.now();
    await enter();
    await storePersisted();
    const took = performance.now() - begin;
    times.push(took);
    if (took < spacing) await sleep(spacing - took);
  }
  return times;
}

async function fill(to: number): Promise<void> {
  for (let count = repos.botState.giveawayEntryCount(streamer.id); count < to; count = repos.botState.giveawayEntryCount(streamer.id)) {
    for (let i = 0; i < Math.min(500, to - count); i++) await enter();
    await storePersisted();
  }
}

await app.listen({ port: 0, host: "127.0.0.1" });
const { port } = app.server.address() as AddressInfo;
process.on("message", (m: Message) => {
  if (m.type === "feed") {
    measuring = true;
    feedStart = performance.now();
    loopDelay.enable();
    void feed(m.count, m.rate).then((times) => {
      measuring = false;
      diagReport(`${repos.botState.giveawayEntryCount(streamer.id) > m.count ? "full" : "empty"} (${repos.store.description.startsWith("PostgreSQL") ? "PostgreSQL" : "files"})`);
      process.send?.({ type: "fed", times, entries: repos.botState.giveawayEntryCount(streamer.id) });
    });
  }
  if (m.type === "fill") void fill(m.to).then(() => process.send?.({ type: "filled", entries: repos.botState.giveawayEntryCount(streamer.id) }));
  if (m.type === "stop") void app.close().then(() => (rmSync(dir, { recursive: true, force: true }), process.exit(0)));
});
process.send?.({ type: "ready", port, token, description: repos.store.description });
