// Cross-node visibility on one PostgreSQL database: how long after node A logs an alert (and its
// write commits) node B has it in memory (B's store applied A's announcement: re-read the row and
// appended it). Beside it, from the same run and the same database, the floor: a bare NOTIFY from
// one connection received by another LISTENing one. Two stores in one process, one alert every
// 20 ms (so the store's 20 ms write pacing never queues one), bounded count.
import pg from "pg";
import { pino } from "pino";
import { freshDatabase } from "../src/__tests__/services/postgres.js";
import { PostgresBackend } from "../src/store/postgres-backend.js";
import { createRepositories } from "../src/store/repositories.js";
import { Store } from "../src/store/store.js";
import type { NotifySub } from "@ovation/core";

const COUNT = Number(process.env["BENCH_NODES_COUNT"] ?? 200);
const SPACING_MS = 20;
const silent = pino({ level: "silent" });

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function bareNotify(url: string): Promise<number[]> {
  const [sender, listener] = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
  await Promise.all([sender.connect(), listener.connect()]);
  await listener.query("listen bench");
  const times: number[] = [];
  for (let i = 0; i < COUNT; i++) {
    const received = new Promise<void>((resolve) => listener.once("notification", () => resolve()));
    const begin = performance.now();
    await sender.query("select pg_notify('bench', $1)", [String(i)]);
    await received;
    times.push(performance.now() - begin);
    await pause(SPACING_MS);
  }
  await Promise.all([sender.end(), listener.end()]);
  return times;
}

async function acrossNodes(url: string): Promise<number[]> {
  const open = async () => Store.fromBackend(await PostgresBackend.open(url, { logger: silent }), { logger: silent });
  const [a, b] = [await open(), await open()];
  const reposA = createRepositories(a);
  const user = reposA.users.create({ name: "bench" });
  await a.persisted();
  const seen = new Map<string, () => void>();
  b.onRemoteChange(({ alertLog }) => {
    for (const { event } of alertLog) if (event.t === "add") seen.get(event.e.notification.notification.id)?.();
  });
  const times: number[] = [];
  for (let i = 0; i < COUNT; i++) {
    const id = `n${i}`;
    const arrived = new Promise<void>((resolve) => seen.set(id, resolve));
    const begin = performance.now();
    reposA.alertLog.append(user.id, { notification: { id }, event: { i } } as unknown as NotifySub, false);
    await arrived;
    times.push(performance.now() - begin);
    await pause(SPACING_MS);
  }
  await Promise.all([a.close(), b.close()]);
  return times;
}

const url = await freshDatabase();
const floor = await bareNotify(url);
const nodes = await acrossNodes(url);
const row = (name: string, v: number[]) => `| ${name} | ${percentile(v, 50).toFixed(2)} ms | ${percentile(v, 99).toFixed(2)} ms |`;
console.log(`\nAn alert logged on node A, in node B's memory (${COUNT} alerts, one every ${SPACING_MS} ms):\n`);
console.log("| | p50 | p99 |\n|---|---|---|");
console.log(row("bare NOTIFY -> LISTEN (floor)", floor));
console.log(row("node A append -> node B has it (includes A's write pacing, commit, re-read)", nodes));
process.exit(0);
