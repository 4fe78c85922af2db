// Store write cost: `POST /v1/alerts` latency of one user (real HTTP on loopback) on two servers in
// their own processes, one whose store holds only that user and one where another user stored
// 30 MB; requests alternate between them (one every 40 ms, so the store's 20 ms write pacing never
// queues a request) so machine noise hits both alike. Beside it, the reference from the same run:
// what one write cost in the single-file layout of earlier versions, on each store. Run on the
// embedded store, then on PostgreSQL (a temporary server started like the tests' one).
import { fork } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { freshDatabase } from "../src/__tests__/services/postgres.js";
import { ratiosOf, report, spreadOf } from "../../../scripts/bench-figures.js";
import { serverNodeFlags } from "../bin/node-flags.mjs";

const REQUESTS = Number(process.env["BENCH_STORE_REQUESTS"] ?? 200);
const SPACING_MS = 40;

interface Ready {
  type: "ready";
  port: number;
  token: string;
  storedBytes: number;
  description: string;
}

function start(kind: "empty" | "big", databaseUrl: string | undefined): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = fork(fileURLToPath(new URL("./store-server.ts", import.meta.url)), [kind, ...(databaseUrl ? [databaseUrl] : [])], {
    execArgv: [...serverNodeFlags(), "--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("message", (m) => resolve({ child, ready: m as Ready }));
    child.once("exit", (code) => reject(new Error(`store bench server exited with ${code}`)));
  });
}

function ask<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve) => {
    child.once("message", (m) => resolve(m as T));
    child.send({ type });
  });
}

async function post(ready: Ready, i: number): Promise<number> {
  const begin = performance.now();
  const res = await fetch(`http://127.0.0.1:${ready.port}/v1/alerts`, {
    method: "POST",
    headers: { authorization: `Bearer ${ready.token}`, "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ template: "follow", data: { name: `viewer${i}` } }),
  });
  await res.arrayBuffer();
  if (res.status !== 201) throw new Error(`POST /v1/alerts answered ${res.status}`);
  return performance.now() - begin;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const ms = (v: number) => `${v.toFixed(2)} ms`;

async function measure(backend: "embedded files" | "PostgreSQL"): Promise<void> {
  const url = async () => (backend === "PostgreSQL" ? await freshDatabase() : undefined);
  const [empty, big] = await Promise.all([start("empty", await url()), start("big", await url())]);
  const latencies = { empty: [] as number[], big: [] as number[] };
  for (let i = 0; i < 20; i++) await Promise.all([post(empty.ready, i), post(big.ready, i)]); // warm-up
  for (let i = 0; i < REQUESTS; i++) {
    latencies.empty.push(await post(empty.ready, i));
    await new Promise((r) => setTimeout(r, SPACING_MS / 2));
    latencies.big.push(await post(big.ready, i));
    await new Promise((r) => setTimeout(r, SPACING_MS / 2));
  }
  const reference = { empty: (await ask<{ ms: number }>(empty.child, "single-file")).ms, big: (await ask<{ ms: number }>(big.child, "single-file")).ms };
  for (const { child } of [empty, big]) {
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.send({ type: "stop" });
    await exited;
  }
  console.log(`\n${backend}: ${REQUESTS} POST /v1/alerts of one user per store, alternating, one every ${SPACING_MS} ms`);
  console.log("another user's data | POST p50 | POST p99 | reference: one write of the single-file layout");
  const rows = { empty: "empty", big: `${(big.ready.storedBytes / 1e6).toFixed(1)} MB` };
  for (const kind of ["empty", "big"] as const) {
    const sorted = [...latencies[kind]].sort((a, b) => a - b);
    console.log(`${rows[kind].padStart(19)} | ${ms(percentile(sorted, 50)).padStart(8)} | ${ms(percentile(sorted, 99)).padStart(8)} | ${ms(reference[kind])}`);
  }
  // Each request of one store is a round beside the other store's request of the same i.
  const id = backend === "PostgreSQL" ? "store.postgres" : "store.files";
  report({ id: `${id}.empty`, label: `${backend}: POST latency, empty store`, unit: "ms", rounds: REQUESTS, value: spreadOf(latencies.empty), better: "lower" });
  report({ id: `${id}.big`, label: `${backend}: POST latency, ${rows.big} of another user`, unit: "ms", rounds: REQUESTS, value: spreadOf(latencies.big), better: "lower" });
  report({ id: `${id}.ratio`, label: `${backend}: big / empty, request by request`, unit: "x", rounds: REQUESTS, value: spreadOf(ratiosOf(latencies.big, latencies.empty)), better: "lower", target: { op: "<=", value: 1.2 } });
  const sortedCopy = (values: number[]) => [...values].sort((a, b) => a - b);
  const ratio = percentile(sortedCopy(latencies.big), 50) / percentile(sortedCopy(latencies.empty), 50);
  console.log(`ratio p50 (${rows.big} / empty): ${ratio.toFixed(2)} (target <= 1.2: ${ratio <= 1.2 ? "met" : "NOT met"})`);
}

console.log("store write cost: alert POST latency with an empty store vs another user's 30 MB");
await measure("embedded files");
await measure("PostgreSQL");
process.exit(0);
