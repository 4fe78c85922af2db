// Bytes each alert keeps alive on the node that takes its POST (not part of `npm run bench`): one
// node on embedded files and Redis, alerts posted as latency-two-nodes.bench.ts posts them, the heap measured
// after full GCs before and after 500 alerts of a new user (the log keeps each user's newest 500). The
// difference over 500 is what each alert keeps while it is in its user's log (about 2.5 s at 200
// alerts a second), which young-generation GCs copy until it is promoted. It does not depend on
// how loaded the machine is. Runs the BUILT server (apps/server/dist): rebuild after changing src.
//
//   node --no-node-snapshot --expose-gc --import tsx apps/server/bench/alert-log-retained.ts
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getHeapStatistics } from "node:v8";
import { pino } from "pino";
import { buildDefaultAlertSet } from "@ovation/core";
import { buildApp, loadConfig } from "@ovation/server";
import { startOwnRedis } from "../src/__tests__/services/redis.js";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc");
const dir = mkdtempSync(join(tmpdir(), "ovation-retained-"));
// With Redis, as the two-node bench runs: socket.io's Redis streams adapter keeps no packets in
// memory for connection-state recovery (the in-memory adapter keeps every emit for two minutes).
const redis = await startOwnRedis();
const config = loadConfig({ OVATION_DATA_DIR: dir, HOST: "127.0.0.1", PORT: "0", OVATION_RATE_LIMIT_PER_MINUTE: "100000000", OVATION_LOG_LEVEL: "silent", OVATION_REDIS_URL: redis.url });
const app = await buildApp({ config, logger: pino({ level: "silent" }) });
const repos = app.ovation.repos;
const { id: _i, user_id: _u, active: _a, ...set } = buildDefaultAlertSet({ id: 1, user_id: 1 });

/** A new user with an alert set, a browser source and a token to post with. */
function newUser(name: string): { token: string; userId: number } {
  const user = repos.users.create({ name });
  repos.alertSets.create({ user_id: user.id, name: "bench", version: 4, config: set });
  repos.browserSources.findOrCreate(user.id, "alerts", null);
  return { token: repos.tokens.create({ user_id: user.id, name: "bench", scopes: ["alerts:manage"] }).token, userId: user.id };
}

let seq = 0;
async function post(token: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++, seq++) {
    const data = { name: "bench", seq, sent: performance.timeOrigin + performance.now() };
    const res = await app.inject({ method: "POST", url: "/v1/alerts", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, payload: JSON.stringify({ template: "follow", data }) });
    if (res.statusCode !== 201) throw new Error(`POST answered ${res.statusCode}: ${res.body}`);
  }
  await repos.store.persisted();
}
function heap(): number {
  for (let i = 0; i < 4; i++) gc?.();
  return getHeapStatistics().used_heap_size;
}

// With BENCH_RETAINED_PROFILE=<file>: the first round's sampled allocations that are still alive, as a .heapprofile.
const profile = process.env["BENCH_RETAINED_PROFILE"];
const inspector = new Session();
if (profile) {
  inspector.connect();
  await inspector.post("HeapProfiler.enable");
}
const rounds = Number(process.env["BENCH_RETAINED_ROUNDS"] ?? 3);
const perAlert: number[] = [];
const perEntry: number[] = [];
// Warm up (compiled code, caches) on a user of its own; then each round a new user's empty log is filled to 500.
await post(newUser("warm-up").token, 600);
for (let r = 0; r < rounds; r++) {
  const { token, userId } = newUser(`user-${r}`);
  await post(token, 1);
  const before = heap();
  if (profile && r === 0) await inspector.post("HeapProfiler.startSampling", { samplingInterval: 512 });
  await post(token, 500);
  const full = heap();
  perAlert.push((full - before) / 500);
  // What the log alone holds: the heap freed when the user's 501 entries are dropped from memory
  // (behind the store's back: the process ends after the measurement).
  repos.store.data.alert_log[String(userId)] = [];
  perEntry.push((full - heap()) / 501);
  if (profile && r === 0) {
    // Sampled allocations of the 500 alerts still alive after the full GCs, by allocation site.
    const { profile: sampled } = await inspector.post("HeapProfiler.stopSampling");
    writeFileSync(profile, JSON.stringify(sampled));
  }
}
const sorted = [...perAlert].sort((a, b) => a - b);
const entries = [...perEntry].sort((a, b) => a - b);
console.log(`bytes kept per logged alert: median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(0)} (${sorted.map((v) => v.toFixed(0)).join(", ")}); of them the log entry: median ${entries[Math.floor(entries.length / 2)]?.toFixed(0)} (${entries.map((v) => v.toFixed(0)).join(", ")})`);
// Bounded: the close can wait on the adapter's blocking Redis read.
await Promise.race([app.close(), new Promise((resolve) => setTimeout(resolve, 5_000))]);
await redis.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
