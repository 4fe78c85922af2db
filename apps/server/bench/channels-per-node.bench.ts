// Channels per node: heap and CPU per idle served channel of one Ovation node serving linked Kick
// channels in pusher mode (one chat socket per channel to the fake Kick's Pusher, each channel's
// tokens refreshed and its account read from the fake API first), beside bare WebSocket clients
// (Node's own) holding the same sockets in a process of their own. Each side starts empty, is
// measured (heap after GC, CPU over an idle window), serves N channels, and is measured again: per
// channel, (heap after - heap before) / N and idle CPU per second / N. Sizes BENCH_CHANNEL_SIZES
// (default 1000,10000), idle window BENCH_IDLE_MS (default 10 s).
import { fork } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { FakeKick, FakePusher } from "@ovation/plugin-kick/testing";
import { report, spreadOf } from "../../../scripts/bench-figures.js";

const SIZES = (process.env["BENCH_CHANNEL_SIZES"] ?? "1000,10000").split(",").map(Number);
const IDLE_MS = Number(process.env["BENCH_IDLE_MS"] ?? 10_000);

interface Measured {
  heapUsed: number;
  rss: number;
  cpuMicros: number;
  idleMs: number;
  serving: number;
}

const kick = await FakeKick.start();
const pusher = await FakePusher.start();

function child(kind: "ovation" | "bare"): Promise<ChildProcess> {
  const proc = fork(fileURLToPath(new URL("./channels-node.ts", import.meta.url)), [kind], {
    // Node 20 has its WebSocket client behind a flag (Node 22 has it on).
    // BENCH_CHILD_NODE_OPTIONS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`): diagnosis of a slow side.
    execArgv: ["--no-node-snapshot", "--expose-gc", "--max-old-space-size=4096", "--experimental-websocket", ...(process.env["BENCH_CHILD_NODE_OPTIONS"] ?? "").split(" ").filter(Boolean), "--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: {
      ...process.env,
      BENCH_KICK_CLIENT_ID: kick.clientId,
      BENCH_KICK_CLIENT_SECRET: kick.clientSecret,
      BENCH_KICK_API_URL: kick.apiUrl,
      BENCH_KICK_TOKEN_URL: kick.tokenUrl,
      BENCH_PUSHER_URL: pusher.url,
    },
  });
  return new Promise((resolve, reject) => {
    proc.once("message", () => resolve(proc));
    proc.once("exit", (code) => reject(new Error(`${kind} child exited with ${code}`)));
  });
}

function ask<T>(proc: ChildProcess, message: Record<string, unknown>, answer: string, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${answer} within ${timeoutMs} ms`)), timeoutMs);
    const on = (m: { type?: string }) => {
      if (m.type !== answer) return;
      clearTimeout(timer);
      proc.off("message", on);
      resolve(m as T);
    };
    proc.on("message", on);
    proc.send(message);
  });
}

async function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    proc.once("exit", () => resolve());
    proc.send({ type: "stop" });
    setTimeout(() => proc.kill("SIGKILL"), 20_000).unref();
  });
}

let nextId = 1_000_000;
/** N new accounts of the fake (each with its own refresh token). */
function accounts(n: number): Array<{ user_id: number; name: string; refreshToken: string }> {
  return Array.from({ length: n }, () => {
    const account = kick.addAccount(nextId, `K${nextId++}`);
    return { user_id: account.user_id, name: account.name, refreshToken: account.refreshToken };
  });
}

const kib = (bytes: number) => bytes / 1024;
console.log(`channels per node: Kick in pusher mode on the fakes, one node, idle window ${IDLE_MS} ms`);
console.log("side    | channels | serving | brought up in (CPU) | heap/channel | rss/channel | idle CPU/channel");
for (const n of SIZES) {
  const rows: Record<string, { heap: number; rss: number; cpu: number }> = {};
  for (const kind of ["bare", "ovation"] as const) {
    const proc = await child(kind);
    try {
      const before = await ask<Measured>(proc, { type: "measure", idleMs: IDLE_MS }, "measured", IDLE_MS + 60_000);
      const started = performance.now();
      const served = await ask<{ serving: number; cpuMicros: number; refused?: Record<string, number> }>(proc, { type: "serve", accounts: accounts(n) }, "served", 30 * 60_000);
      const upSeconds = (performance.now() - started) / 1000;
      const after = await ask<Measured>(proc, { type: "measure", idleMs: IDLE_MS }, "measured", IDLE_MS + 60_000);
      const cpuPerS = (m: Measured) => m.cpuMicros / (m.idleMs / 1000);
      rows[kind] = {
        heap: (after.heapUsed - before.heapUsed) / n,
        rss: (after.rss - before.rss) / n,
        cpu: Math.max(0, cpuPerS(after) - cpuPerS(before)) / n,
      };
      const r = rows[kind]!;
      if (served.serving < n) console.log(`${kind}: ${n - served.serving} of ${n} channels not served: ${JSON.stringify(served.refused ?? {})}`);
      console.log(`${kind.padEnd(7)} | ${String(n).padStart(8)} | ${String(served.serving).padStart(7)} | ${upSeconds.toFixed(1).padStart(7)} s (${(served.cpuMicros / 1e6).toFixed(1).padStart(5)} s) | ${kib(r.heap).toFixed(2).padStart(8)} KiB | ${kib(r.rss).toFixed(2).padStart(7)} KiB | ${r.cpu.toFixed(2).padStart(6)} µs CPU/s`);
    } finally {
      await stop(proc);
    }
  }
  for (const kind of ["bare", "ovation"] as const) {
    const r = rows[kind]!;
    report({ id: `channels-per-node.${n}.${kind}.heap`, label: `    ${n} channels, ${kind} heap per channel`, unit: "KiB", rounds: 1, value: spreadOf([kib(r.heap)]), better: "lower" });
    report({ id: `channels-per-node.${n}.${kind}.cpu`, label: `    ${n} channels, ${kind} idle CPU per channel (µs per s)`, unit: "µs", rounds: 1, value: spreadOf([r.cpu]), better: "lower" });
  }
}
await pusher.close();
await kick.close();
