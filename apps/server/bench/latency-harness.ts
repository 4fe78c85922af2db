// What the latency benches share: server children (latency-server.ts), client children
// (latency-clients.ts) and one measured phase: alerts POSTed at a fixed rate to one server, the
// time from each POST to each client's `notifysub` handler, p50/p99.
import { fork } from "node:child_process";
import { openSync } from "node:fs";
import type { ChildProcess } from "node:child_process";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { alternate, benchRounds, report, spreadOf } from "../../../scripts/bench-figures.js";
import { serverNodeFlags } from "../bin/node-flags.mjs";
import { diagnosisNodeFlags } from "./diagnosis-flags.js";

/** Deliveries (alerts x connected sources) per second: the same load at every size. */
export const DELIVERIES_PER_S = Number(process.env["BENCH_DELIVERIES_PER_S"] ?? 2000);
export const MAX_RATE = 200;
/** Alerts per second at `n` sources. */
export const rateFor = (n: number) => Math.min(MAX_RATE, DELIVERIES_PER_S / n);
/** Alerts measured per phase at least (slow rates get a longer phase). */
export const MIN_ALERTS = 20;
export const WARMUP = 10;
export const PHASE_MS = Number(process.env["BENCH_PHASE_MS"] ?? 2500);
export const SIZES = (process.env["BENCH_SIZES"] ?? "1,100,1000").split(",").map(Number);
/** Client processes share the receiving work (decoding N messages per alert) between cores. */
const CLIENT_PROCESSES = Number(process.env["BENCH_CLIENT_PROCESSES"] ?? 2);

let serverCount = 0;

/** What a server child reports once it listens. */
export interface Ready {
  type: "ready";
  port: number;
  token: string;
  room: string;
  browserSourceToken: string;
}

/** Which server a child runs. */
export type ServerKind = "ovation" | "bare";

/**
 * Forks latency-server.ts. `env`: the child's extra environment (a Redis URL for the adapter, a
 * PostgreSQL URL, the credentials of an installation another node made...).
 */
export function startServer(kind: ServerKind, env: Record<string, string> = {}): Promise<{ child: ChildProcess; ready: Ready }> {
  // Diagnosis: BENCH_SERVER_NODE_FLAGS adds V8/Node flags to the server children only
  // (diagnosis-flags.ts, e.g. `--trace-gc-nvp`), and BENCH_SERVER_LOG_DIR sends each server's stdout
  // to `<dir>/<kind>-<BENCH_SERVER_ID or n>.log` (V8's GC traces go to stdout).
  const extra = diagnosisNodeFlags();
  const logDir = process.env["BENCH_SERVER_LOG_DIR"];
  const stdout = logDir ? openSync(join(logDir, `${kind}-${env["BENCH_SERVER_ID"] ?? String(++serverCount)}.log`), "w") : "inherit";
  const child = fork(fileURLToPath(new URL("./latency-server.ts", import.meta.url)), [kind], {
    // The flags `ovation start` runs a server with (bin/node-flags.mjs), for the bare servers too.
    execArgv: [...serverNodeFlags(), "--expose-gc", "--import", "tsx", ...extra, ...(process.env["BENCH_SERVER_PROF"] ? ["--cpu-prof", `--cpu-prof-dir=${process.env["BENCH_SERVER_PROF"]}`] : [])],
    stdio: ["ignore", stdout, "inherit", "ipc"],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    child.once("message", (m) => resolve({ child, ready: m as Ready }));
    child.once("exit", (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
}

/** Starts node B of a two-node bench, joined to node A's installation, on a port of its own. */
export async function startJoinedServer(first: Ready, env: Record<string, string>): Promise<{ child: ChildProcess; ready: Ready }> {
  const second = await startServer("ovation", { ...env, BENCH_JOIN: JSON.stringify(first) });
  if (second.ready.port === first.port) throw new Error("node B reported node A's port: its clients would be on node A");
  return second;
}

/** Asks a child for something over IPC and resolves with its first answer. */
export function ask<T>(child: ChildProcess, type: string, extra: Record<string, unknown> = {}): Promise<T> {
  return new Promise((resolve) => {
    child.once("message", (m) => resolve(m as T));
    child.send({ ...extra, type });
  });
}

/** Stops a server child and waits for its exit. */
export async function stopServer(child: ChildProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.send({ type: "stop" });
  await exited;
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function forkClients(): ChildProcess {
  return fork(fileURLToPath(new URL("./latency-clients.ts", import.meta.url)), [], {
    execArgv: ["--no-node-snapshot", "--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
}

function reply<T>(child: ChildProcess, type: string, message?: Record<string, unknown>): Promise<T> {
  return new Promise((resolve) => {
    const handler = (m: unknown) => {
      if ((m as { type?: string }).type !== type) return;
      child.off("message", handler);
      resolve(m as T);
    };
    child.on("message", handler);
    if (message) child.send(message);
  });
}

/** What one phase measured. */
export interface PhaseResult {
  p50: number;
  p99: number;
  samples: number;
  missing: number;
}

/**
 * One phase: `n` clients (in client processes of their own, process i connected to
 * `targets[i % targets.length]`) join the room; alerts are POSTed to `postTo` at `rateFor(n)` per
 * second; resolves with the latencies once every delivery arrived (or 20 s passed).
 */
export async function phase(kind: ServerKind, postTo: Ready, n: number, targets: readonly Ready[] = [postTo]): Promise<PhaseResult> {
  const rate = rateFor(n);
  const total = WARMUP + Math.max(MIN_ALERTS, Math.round((PHASE_MS / 1000) * rate));
  const processes = Math.max(1, Math.min(Math.max(CLIENT_PROCESSES, targets.length), n));
  const clients = Array.from({ length: processes }, () => forkClients());
  await Promise.all(
    clients.map((child, i) => {
      const target = targets[i % targets.length] ?? postTo;
      return reply(child, "ready", {
        type: "start",
        url: `http://127.0.0.1:${target.port}`,
        room: target.room,
        browserSourceToken: target.browserSourceToken,
        count: Math.floor(n / processes) + (i < n % processes ? 1 : 0),
        ack: kind === "ovation" && i === 0,
        warmup: WARMUP,
      });
    }),
  );
  const url = kind === "ovation" ? `http://127.0.0.1:${postTo.port}/v1/alerts` : `http://127.0.0.1:${postTo.port}/emit`;
  const headers = { authorization: `Bearer ${postTo.token}`, "content-type": "application/json", accept: "application/json" };
  const start = performance.now();
  const requests: Promise<unknown>[] = [];
  for (let seq = 0; seq < total; seq++) {
    const due = start + (seq * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const data = { name: "bench", seq, sent: performance.timeOrigin + performance.now() };
    const body =
      kind === "ovation"
        ? { template: "follow", data }
        : { subscription: { type: "follow", version: "1", condition: { platform: "twitch", platform_id: "1" } }, notification: { id: `n-${seq}`, created_at: "" }, event: data, ovation: { random: 1, template: null, test: false } };
    requests.push(fetch(url, { method: "POST", headers, body: JSON.stringify(body) }).then((r) => r.arrayBuffer()));
  }
  await Promise.all(requests);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const counts = await Promise.all(clients.map((child) => reply<{ received: number }>(child, "count", { type: "count" })));
    if (counts.reduce((sum, c) => sum + c.received, 0) >= total * n || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const results = await Promise.all(clients.map((child) => reply<{ latencies: number[]; received: number }>(child, "results", { type: "results" })));
  await Promise.all(clients.map((child) => new Promise<void>((resolve) => (child.once("exit", () => resolve()), child.send({ type: "stop" })))));
  const sorted = Float64Array.from(results.flatMap((r) => r.latencies)).sort();
  const received = results.reduce((sum, r) => sum + r.received, 0);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), samples: sorted.length, missing: total * n - received };
}

const ms = (v: number) => `${v.toFixed(2)} ms`;

/** The table header of {@link tableRow}. */
export const TABLE_HEADER = "clients | alerts/s | floor p50 | floor p99 | ovation p50 | ovation p99 | target p99 <= 2*floor+2ms";

/** One line of the latency table: a size, the floor's figures and ours, and whether the target is met. */
export function tableRow(n: number, floor: PhaseResult, ours: PhaseResult): string {
  const target = 2 * floor.p99 + 2;
  const lost = floor.missing + ours.missing > 0 ? ` (missing: floor ${floor.missing}, ovation ${ours.missing})` : "";
  return `${String(n).padStart(7)} | ${rateFor(n).toFixed(0).padStart(8)} | ${ms(floor.p50).padStart(9)} | ${ms(floor.p99).padStart(9)} | ${ms(ours.p50).padStart(11)} | ${ms(ours.p99).padStart(11)} | ${ours.p99 <= target ? "met" : "NOT met"} (${ms(target)})${lost}`;
}

/** Rounds of each size (BENCH_ROUNDS, default 5): floor and ours alternate. */
export const ROUNDS = benchRounds();

/**
 * One size, ROUNDS alternating phases of the floor and ours; prints the table row of the medians
 * and records each figure with its spread: p50 and p99 of both sides, and ours p99 over the target
 * of the same round (2 x floor p99 + 2 ms; at most 1 meets it). `id` names the bench in the record.
 */
export async function measureSize(id: string, n: number, floor: () => Promise<PhaseResult>, ours: () => Promise<PhaseResult>): Promise<void> {
  const rounds = await alternate(ROUNDS, { floor, ours });
  const median = (list: PhaseResult[]): PhaseResult => ({
    p50: spreadOf(list.map((r) => r.p50)).median,
    p99: spreadOf(list.map((r) => r.p99)).median,
    samples: list.reduce((sum, r) => sum + r.samples, 0),
    missing: list.reduce((sum, r) => sum + r.missing, 0),
  });
  console.log(tableRow(n, median(rounds.floor), median(rounds.ours)));
  for (const side of ["floor", "ours"] as const) {
    for (const p of ["p50", "p99"] as const) {
      report({ id: `${id}.${n}.${side}.${p}`, label: `    ${n} clients, ${side === "floor" ? "floor" : "ovation"} ${p}`, unit: "ms", rounds: ROUNDS, value: spreadOf(rounds[side].map((r) => r[p])), better: "lower" });
    }
  }
  const overTarget = rounds.ours.map((r, i) => r.p99 / (2 * (rounds.floor[i] as PhaseResult).p99 + 2));
  report({ id: `${id}.${n}.target`, label: `    ${n} clients, ovation p99 / (2 x floor p99 + 2 ms)`, unit: "x", rounds: ROUNDS, value: spreadOf(overTarget), better: "lower", target: { op: "<=", value: 1 } });
}

/** The first line of a latency table: what was measured, at which load, on how loaded a machine. */
export function loadLine(title: string): string {
  return `${title}, ${DELIVERIES_PER_S} deliveries/s (alerts/s = deliveries / clients, at most ${MAX_RATE}), ${PHASE_MS} ms per phase or ${MIN_ALERTS} alerts (after ${WARMUP} warm-up alerts); load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`;
}
