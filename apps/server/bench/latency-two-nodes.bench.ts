// End-to-end alert latency across two nodes: two Ovation processes on one PostgreSQL store and one
// Redis (the socket.io Redis streams adapter), alerts POSTed to node A, the N clients split between
// node B (the first client process) and node A, in client processes of their own. Beside it the
// floor: two bare socket.io processes on the same Redis adapter (same options), POSTed to and
// connected to the same way. Same sizes, rates and alternating phases as latency.bench.ts.
import { freshDatabase } from "../src/__tests__/services/postgres.js";
import { startOwnRedis } from "../src/__tests__/services/redis.js";
import { ROUNDS, SIZES, TABLE_HEADER, loadLine, measureSize, phase, startJoinedServer, startServer, stopServer } from "./latency-harness.js";

const redis = await startOwnRedis();
const database = await freshDatabase();
const shared = { BENCH_REDIS_URL: redis.url };
const ovationA = await startServer("ovation", { ...shared, BENCH_DATABASE_URL: database, BENCH_SERVER_ID: "bench-a" });
const ovationB = await startJoinedServer(ovationA.ready, { ...shared, BENCH_DATABASE_URL: database, BENCH_SERVER_ID: "bench-b" });
const bareA = await startServer("bare", shared);
const bareB = await startServer("bare", shared);
const ovationTargets = [ovationB.ready, ovationA.ready];
const bareTargets = [bareB.ready, bareA.ready];

console.log(loadLine("two nodes on Redis: latency POST to node A -> notifysub handler on nodes B and A"));
// Warm both sides (JIT, connection pools, the adapters' streams) with a throwaway phase each.
await phase("bare", bareA.ready, 2, bareTargets);
await phase("ovation", ovationA.ready, 2, ovationTargets);
console.log("floor: two bare socket.io processes on the same Redis streams adapter");
console.log(`each row: medians of ${ROUNDS} alternating phases of the floor and ovation; min and max below it`);
console.log(TABLE_HEADER);
for (const n of SIZES) {
  await measureSize("latency-two-nodes", n, () => phase("bare", bareA.ready, n, bareTargets), () => phase("ovation", ovationA.ready, n, ovationTargets));
}

for (const server of [ovationA, ovationB, bareA, bareB]) await stopServer(server.child);
await redis.close();
