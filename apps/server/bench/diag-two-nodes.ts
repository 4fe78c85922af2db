// Diagnosis of the two-node latency at 1 client (not part of `npm run bench`): the phases of
// latency-two-nodes.bench.ts at one size, with each server's event-loop delay over each phase.
import { freshDatabase } from "../src/__tests__/services/postgres.js";
import { startOwnRedis } from "../src/__tests__/services/redis.js";
import { ask, phase, startServer, stopServer } from "./latency-harness.js";

const n = Number(process.env["BENCH_DIAG_CLIENTS"] ?? 1);
const rounds = Number(process.env["BENCH_DIAG_ROUNDS"] ?? 3);
const redis = await startOwnRedis();
const database = await freshDatabase();
const shared = { BENCH_REDIS_URL: redis.url };
const ovationA = await startServer("ovation", { ...shared, BENCH_DATABASE_URL: database, BENCH_SERVER_ID: "bench-a" });
const ovationB = await startServer("ovation", { ...shared, BENCH_DATABASE_URL: database, BENCH_SERVER_ID: "bench-b", BENCH_JOIN: JSON.stringify(ovationA.ready) });
const bareA = await startServer("bare", shared);
const bareB = await startServer("bare", shared);
const servers = { ovationA, ovationB, bareA, bareB };
type Delay = { p50: number; p99: number; max: number };
const delays = async () => Object.fromEntries(await Promise.all(Object.entries(servers).map(async ([k, s]) => [k, await ask<Delay>(s.child, "delay")]))) as Record<string, Delay>;
await phase("bare", bareA.ready, 2, [bareB.ready, bareA.ready]);
await phase("ovation", ovationA.ready, 2, [ovationB.ready, ovationA.ready]);
const f = (d: Delay) => `${d.p50.toFixed(1)}/${d.p99.toFixed(1)}/${d.max.toFixed(1)}`;
for (let r = 0; r < rounds; r++) {
  await delays();
  const floor = await phase("bare", bareA.ready, n, [bareB.ready, bareA.ready]);
  const dFloor = await delays();
  const ours = await phase("ovation", ovationA.ready, n, [ovationB.ready, ovationA.ready]);
  const dOurs = await delays();
  console.log(`round ${r + 1}: floor p50 ${floor.p50.toFixed(2)} p99 ${floor.p99.toFixed(2)} (loop delay ms p50/p99/max A ${f(dFloor["bareA"]!)} B ${f(dFloor["bareB"]!)}) | ovation p50 ${ours.p50.toFixed(2)} p99 ${ours.p99.toFixed(2)} (A ${f(dOurs["ovationA"]!)} B ${f(dOurs["ovationB"]!)})`);
}
for (const s of Object.values(servers)) await stopServer(s.child);
await redis.close();
