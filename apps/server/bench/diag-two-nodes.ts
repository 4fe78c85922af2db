// Diagnosis of the two-node latency at 1 client (not part of `npm run bench`): the phases of
// latency-two-nodes.bench.ts at one size, with each server's event-loop delay over each phase, and
// for the Ovation nodes what else happened meanwhile: GC pauses, CPU time, the longest stalls (with
// the GC pauses they overlap), and the writes per alert (Redis commands, PostgreSQL transactions,
// statements each node sent, and row changes of the alert log), which do not depend on how loaded the machine is; and CPU µs
// per alert of each server. The servers run the BUILT server (apps/server/dist, as `npm run bench`
// builds it first): after changing src, rebuild (`cd apps/server && npx tsc -p tsconfig.build.json`)
// or this measures the old code.
import { Redis } from "ioredis";
import pg from "pg";
import { freshDatabase } from "../src/__tests__/services/postgres.js";
import { startOwnRedis } from "../src/__tests__/services/redis.js";
import { ask, phase, startJoinedServer, startServer, stopServer } from "./latency-harness.js";

const n = Number(process.env["BENCH_DIAG_CLIENTS"] ?? 1);
const rounds = Number(process.env["BENCH_DIAG_ROUNDS"] ?? 3);
const redis = await startOwnRedis();
const database = await freshDatabase();
const shared = { BENCH_REDIS_URL: redis.url, BENCH_DIAG: "1" };
const ovationA = await startServer("ovation", { ...shared, BENCH_DATABASE_URL: database, BENCH_SERVER_ID: "bench-a" });
const ovationB = await startJoinedServer(ovationA.ready, { ...shared, BENCH_DATABASE_URL: database, BENCH_SERVER_ID: "bench-b" });
const bareA = await startServer("bare", shared);
const bareB = await startServer("bare", shared);
const servers = { ovationA, ovationB, bareA, bareB };
type Delay = { p50: number; p99: number; max: number; gc?: { count: number; totalMs: number; maxMs: number; major: number; majorMaxMs: number }; cpuMs?: number; heapMb?: number; pgQueries?: number; stalls?: Array<{ ms: number; gc: Array<{ ms: number; kind: number }> }> };
const delays = async () => Object.fromEntries(await Promise.all(Object.entries(servers).map(async ([k, s]) => [k, await ask<Delay>(s.child, "delay")]))) as Record<string, Delay>;

const counter = new Redis(redis.url);
const db = new pg.Client({ connectionString: database });
await db.connect();
/** Redis calls per command since the start. */
async function redisCalls(): Promise<Map<string, number>> {
  const info = await counter.info("commandstats");
  return new Map([...info.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)].map((m) => [m[1] as string, Number(m[2])]));
}
/** PostgreSQL transactions of the database and row changes of the alert log since the start (the statistics lag by up to a second). */
async function pgCounts(): Promise<Record<string, number>> {
  await db.query("select pg_stat_clear_snapshot()");
  const { rows } = await db.query<{ xact: string; ins: string | null; upd: string | null; del: string | null }>(
    `select (select xact_commit from pg_stat_database where datname = current_database()) as xact,
       t.n_tup_ins as ins, t.n_tup_upd as upd, t.n_tup_del as del from pg_stat_user_tables t where t.relname = 'ovation_alert_log'`,
  );
  const r = rows[0];
  return { xact: Number(r?.xact ?? 0), ins: Number(r?.ins ?? 0), upd: Number(r?.upd ?? 0), del: Number(r?.del ?? 0) };
}

await phase("bare", bareA.ready, 2, [bareB.ready, bareA.ready]);
await phase("ovation", ovationA.ready, 2, [ovationB.ready, ovationA.ready]);
const f = (d: Delay) => `${d.p50.toFixed(1)}/${d.p99.toFixed(1)}/${d.max.toFixed(1)}`;
const g = (d: Delay) =>
  d.gc
    ? `gc ${d.gc.count} (${d.gc.totalMs.toFixed(0)} ms, max ${d.gc.maxMs.toFixed(1)}, major ${d.gc.major} max ${d.gc.majorMaxMs.toFixed(1)}) cpu ${d.cpuMs?.toFixed(0)} ms heap ${d.heapMb?.toFixed(0)} MB stalls ${(d.stalls ?? []).map((s) => `${s.ms.toFixed(0)}${s.gc.length ? `[gc ${s.gc.map((x) => `${x.kind}:${x.ms.toFixed(0)}`).join(",")}]` : ""}`).join(" ")}`
    : "";
/**
 * With BENCH_DIAG_MONITOR=1: Redis MONITOR over a phase, commands counted by name and key (the key
 * with digits replaced by #), so a count per alert tells who writes what.
 */
const monitorOn = process.env["BENCH_DIAG_MONITOR"] === "1";
async function monitored<T>(run: () => Promise<T>): Promise<{ result: T; byKey: Map<string, number> }> {
  const byKey = new Map<string, number>();
  if (!monitorOn) return { result: await run(), byKey };
  const connection = counter.duplicate();
  const monitor = await connection.monitor();
  monitor.on("monitor", (_time: string, args: string[]) => {
    const name = `${(args[0] ?? "").toLowerCase()} ${(args[1] ?? "").replace(/[0-9a-f]{8,}/g, "*").replace(/\d+/g, "#")}`;
    byKey.set(name, (byKey.get(name) ?? 0) + 1);
    if (name.startsWith("xadd") && (byKey.get(name) ?? 0) > 40 && (byKey.get(name) ?? 0) <= 46) console.log(`  xadd: ${args.slice(2).join(" ").slice(0, 300)}`);
  });
  try {
    return { result: await run(), byKey };
  } finally {
    monitor.disconnect();
    connection.disconnect();
  }
}

for (let r = 0; r < rounds; r++) {
  await delays();
  const floor = await phase("bare", bareA.ready, n, [bareB.ready, bareA.ready]);
  const dFloor = await delays();
  const redisBefore = await redisCalls();
  const pgBefore = await pgCounts();
  // With BENCH_DIAG_SNAPSHOT=<dir> (first round only): heap snapshots of node A 1.5 s into the phase
  // (what lives while alerts flow) and 10 s after it (what stays), to diff what a scavenge copies.
  const snapshotDir = r === 0 ? process.env["BENCH_DIAG_SNAPSHOT"] : undefined;
  const during = snapshotDir ? new Promise((resolve) => setTimeout(resolve, 1_500)).then(() => ask(ovationA.child, "snapshot", { file: `${snapshotDir}/a-during.heapsnapshot` })) : null;
  // With BENCH_DIAG_SAMPLING=<dir> (first round only): node A's and B's sampled allocations of the
  // phase that outlived the young generation (latency-server.ts), as .heapprofile files; with
  // BENCH_DIAG_SAMPLING_ALL=1 every allocation, also what died young (what makes the scavenges come).
  const samplingDir = r === 0 ? process.env["BENCH_DIAG_SAMPLING"] : undefined;
  if (samplingDir) await Promise.all([ask(ovationA.child, "sampling-start"), ask(ovationB.child, "sampling-start")]);
  const { result: ours, byKey } = await monitored(() => phase("ovation", ovationA.ready, n, [ovationB.ready, ovationA.ready]));
  if (samplingDir) await Promise.all([ask(ovationA.child, "sampling-stop", { file: `${samplingDir}/a.heapprofile` }), ask(ovationB.child, "sampling-stop", { file: `${samplingDir}/b.heapprofile` })]);
  await during;
  if (snapshotDir) {
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    await ask(ovationA.child, "snapshot", { file: `${snapshotDir}/a-after.heapsnapshot` });
  }
  const dOurs = await delays();
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const redisAfter = await redisCalls();
  const pgAfter = await pgCounts();
  const alerts = ours.samples / n + 10;
  const perAlert = [...redisAfter]
    .map(([k, v]) => [k, (v - (redisBefore.get(k) ?? 0)) / alerts] as const)
    .filter(([, v]) => v >= 0.05)
    .map(([k, v]) => `${k} ${v.toFixed(2)}`)
    .join(", ");
  const pgPerAlert = Object.entries(pgAfter)
    .map(([k, v]) => `${k} ${((v - (pgBefore[k] ?? 0)) / alerts).toFixed(2)}`)
    .join(", ");
  console.log(`round ${r + 1}: floor p50 ${floor.p50.toFixed(2)} p99 ${floor.p99.toFixed(2)} (loop delay ms p50/p99/max A ${f(dFloor["bareA"]!)} B ${f(dFloor["bareB"]!)}) | ovation p50 ${ours.p50.toFixed(2)} p99 ${ours.p99.toFixed(2)} (A ${f(dOurs["ovationA"]!)} B ${f(dOurs["ovationB"]!)})`);
  console.log(`  ovation A: ${g(dOurs["ovationA"]!)}`);
  console.log(`  ovation B: ${g(dOurs["ovationB"]!)}`);
  console.log(`  bare A: ${g(dFloor["bareA"]!)}`);
  if (monitorOn) console.log(`  monitor per alert: ${[...byKey].filter(([, v]) => v / alerts >= 0.05).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(v / alerts).toFixed(2)}`).join(", ")}`);
  const cpuPerAlert = (d: Delay) => `${(((d.cpuMs ?? 0) * 1000) / alerts).toFixed(0)}`;
  console.log(`  per alert (${alerts}): redis ${perAlert}; postgres ${pgPerAlert}`);
  console.log(`  PostgreSQL statements sent per alert: ovation A ${((dOurs["ovationA"]!.pgQueries ?? 0) / alerts).toFixed(2)} B ${((dOurs["ovationB"]!.pgQueries ?? 0) / alerts).toFixed(2)}`);
  console.log(`  CPU µs per alert: ovation A ${cpuPerAlert(dOurs["ovationA"]!)} B ${cpuPerAlert(dOurs["ovationB"]!)} | bare A ${cpuPerAlert(dFloor["bareA"]!)} B ${cpuPerAlert(dFloor["bareB"]!)}`);
}
for (const s of Object.values(servers)) await stopServer(s.child);
await counter.quit();
await db.end();
await redis.close();
