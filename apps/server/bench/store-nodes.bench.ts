// Cross-node visibility on one PostgreSQL database: how long after node A logs an alert (and its
// write commits) node B has it in memory (B's store applied A's announcement: took the entry it carries, or re-read the row, and
// appended it). Beside it, from the same run and the same database, the floor: a bare NOTIFY from
// one connection received by another LISTENing one. Two stores in one process, one alert every
// 20 ms (so the store's 20 ms write pacing never queues one), bounded count, in BENCH_ROUNDS
// (default 5) alternating rounds of the floor and the nodes; p50 and p99 are medians of the rounds'
// with min and max.
import pg from "pg";
import { pino } from "pino";
import { freshDatabase } from "../src/__tests__/services/postgres.js";
import { PostgresBackend } from "../src/store/postgres-backend.js";
import { createRepositories } from "../src/store/repositories.js";
import { Store } from "../src/store/store.js";
import type { NotifySub } from "@ovation/core";
import { alternate, benchRounds, report, spreadOf } from "../../../scripts/bench-figures.js";

const COUNT = Number(process.env["BENCH_NODES_COUNT"] ?? 200);
const ROUNDS = benchRounds();
/** Alerts per round of one side. */
const PER_ROUND = Math.max(10, Math.round(COUNT / ROUNDS));
const SPACING_MS = 20;
const silent = pino({ level: "silent" });

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function bareNotify(url: string): Promise<{ round: () => Promise<number[]>; close: () => Promise<void> }> {
  const [sender, listener] = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
  await Promise.all([sender.connect(), listener.connect()]);
  await listener.query("listen bench");
  const round = async (): Promise<number[]> => {
    const times: number[] = [];
    for (let i = 0; i < PER_ROUND; i++) {
      const received = new Promise<void>((resolve) => listener.once("notification", () => resolve()));
      const begin = performance.now();
      await sender.query("select pg_notify('bench', $1)", [String(i)]);
      await received;
      times.push(performance.now() - begin);
      await pause(SPACING_MS);
    }
    return times;
  };
  return { round, close: async () => void (await Promise.all([sender.end(), listener.end()])) };
}

async function acrossNodes(url: string): Promise<{ round: () => Promise<number[]>; close: () => Promise<void> }> {
  const open = async () => Store.fromBackend(await PostgresBackend.open(url, { logger: silent }), { logger: silent });
  const [a, b] = [await open(), await open()];
  const reposA = createRepositories(a);
  const user = reposA.users.create({ name: "bench" });
  await a.persisted();
  const seen = new Map<string, () => void>();
  b.onRemoteChange(({ alertLog }) => {
    for (const { event } of alertLog) if (event.t === "add") seen.get(event.e.notification_id)?.();
  });
  let sent = 0;
  const round = async (): Promise<number[]> => {
    const times: number[] = [];
    for (let i = 0; i < PER_ROUND; i++) {
      const id = `n${sent++}`;
      const arrived = new Promise<void>((resolve) => seen.set(id, resolve));
      const begin = performance.now();
      reposA.alertLog.append(user.id, { notification: { id }, event: { i: sent } } as unknown as NotifySub, false);
      await arrived;
      times.push(performance.now() - begin);
      await pause(SPACING_MS);
    }
    return times;
  };
  return { round, close: async () => void (await Promise.all([a.close(), b.close()])) };
}

const url = await freshDatabase();
const floorSide = await bareNotify(url);
const nodesSide = await acrossNodes(url);
const rounds = await alternate(ROUNDS, { floor: floorSide.round, nodes: nodesSide.round });
await Promise.all([floorSide.close(), nodesSide.close()]);
const figure = (side: "floor" | "nodes", p: number) => spreadOf(rounds[side].map((times) => percentile(times, p)));
const row = (name: string, side: "floor" | "nodes") =>
  `| ${name} | ${figure(side, 50).median.toFixed(2)} ms (${figure(side, 50).min.toFixed(2)}-${figure(side, 50).max.toFixed(2)}) | ${figure(side, 99).median.toFixed(2)} ms (${figure(side, 99).min.toFixed(2)}-${figure(side, 99).max.toFixed(2)}) |`;
console.log(`\nAn alert logged on node A, in node B's memory (${ROUNDS} alternating rounds of ${PER_ROUND} alerts, one every ${SPACING_MS} ms; median of the rounds, min-max):\n`);
console.log("| | p50 | p99 |\n|---|---|---|");
console.log(row("bare NOTIFY -> LISTEN (floor)", "floor"));
console.log(row("node A append -> node B has it (includes A's write pacing, commit, announcement)", "nodes"));
for (const side of ["floor", "nodes"] as const) {
  for (const p of [50, 99]) {
    report({ id: `store-nodes.${side}.p${p}`, label: `${side === "floor" ? "bare NOTIFY -> LISTEN" : "node A -> node B's memory"} p${p}`, unit: "ms", rounds: ROUNDS, value: figure(side, p), better: "lower" });
  }
}
process.exit(0);
