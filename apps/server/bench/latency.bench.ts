// End-to-end alert latency: POST /v1/alerts -> `notifysub` handler of N socket.io clients
// (N = 1, 100, 1000) at a fixed total of deliveries per second (alerts/s = deliveries / N, at most
// 200 alerts/s), so that no size saturates the floor; p50/p99, beside the floor: a bare socket.io server that
// emits what it is POSTed, between the same processes (this sender, a server child, client
// children), measured the same way. Then the server's memory per connected browser source.
import { fork } from "node:child_process";
import { loadavg } from "node:os";
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { io as connectClient } from "socket.io-client";
import type { Socket } from "socket.io-client";

/** Deliveries (alerts x connected sources) per second: the same load at every size. */
const DELIVERIES_PER_S = Number(process.env["BENCH_DELIVERIES_PER_S"] ?? 2000);
const MAX_RATE = 200;
/** Alerts per second at `n` sources. */
const rateFor = (n: number) => Math.min(MAX_RATE, DELIVERIES_PER_S / n);
/** Alerts measured per phase at least (slow rates get a longer phase). */
const MIN_ALERTS = 20;
const WARMUP = 10;
const PHASE_MS = Number(process.env["BENCH_PHASE_MS"] ?? 2500);
const SIZES = (process.env["BENCH_SIZES"] ?? "1,100,1000").split(",").map(Number);

interface Ready {
  type: "ready";
  port: number;
  token: string;
  room: string;
  browserSourceToken: string;
}

function startServer(kind: "ovation" | "bare"): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = fork(fileURLToPath(new URL("./latency-server.ts", import.meta.url)), [kind], {
    execArgv: ["--no-node-snapshot", "--expose-gc", "--import", "tsx", ...(process.env["BENCH_SERVER_PROF"] ? ["--cpu-prof", `--cpu-prof-dir=${process.env["BENCH_SERVER_PROF"]}`] : [])],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("message", (m) => resolve({ child, ready: m as Ready }));
    child.once("exit", (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
}

function ask<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve) => {
    child.once("message", (m) => resolve(m as T));
    child.send({ type });
  });
}

async function stopServer(child: ChildProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.send({ type: "stop" });
  await exited;
}

async function connectClients(ready: Ready, n: number, onAlert: (seq: number, socket: Socket, id: string) => void): Promise<Socket[]> {
  const url = `http://127.0.0.1:${ready.port}`;
  const sockets: Socket[] = [];
  for (let start = 0; start < n; start += 100) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(100, n - start) }, () => {
        const auth = ready.browserSourceToken ? { browserSourceToken: ready.browserSourceToken } : {};
        const socket = connectClient(url, { auth, transports: ["websocket"], reconnection: false, forceNew: true, timeout: 30_000 });
        socket.on("notifysub", (n: { notification?: { id?: string }; event?: { seq?: number } }) => onAlert(n.event?.seq ?? -1, socket, n.notification?.id ?? ""));
        return new Promise<Socket>((resolve, reject) => {
          socket.once("connect", () => {
            socket.once("joined", () => resolve(socket));
            socket.emit("room", ready.room);
          });
          socket.once("connect_error", reject);
        });
      }),
    );
    sockets.push(...batch);
  }
  return sockets;
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Client processes share the receiving work (decoding N messages per alert) between cores. */
const CLIENT_PROCESSES = Number(process.env["BENCH_CLIENT_PROCESSES"] ?? 2);

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

async function phase(kind: "ovation" | "bare", ready: Ready, n: number): Promise<{ p50: number; p99: number; samples: number; missing: number }> {
  const rate = rateFor(n);
  const total = WARMUP + Math.max(MIN_ALERTS, Math.round((PHASE_MS / 1000) * rate));
  const processes = Math.max(1, Math.min(CLIENT_PROCESSES, n));
  const clients = Array.from({ length: processes }, () => forkClients());
  await Promise.all(
    clients.map((child, i) =>
      reply(child, "ready", {
        type: "start",
        url: `http://127.0.0.1:${ready.port}`,
        room: ready.room,
        browserSourceToken: ready.browserSourceToken,
        count: Math.floor(n / processes) + (i < n % processes ? 1 : 0),
        ack: kind === "ovation" && i === 0,
        warmup: WARMUP,
      }),
    ),
  );
  const url = kind === "ovation" ? `http://127.0.0.1:${ready.port}/v1/alerts` : `http://127.0.0.1:${ready.port}/emit`;
  const headers = { authorization: `Bearer ${ready.token}`, "content-type": "application/json", accept: "application/json" };
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

const ovation = await startServer("ovation");
const bare = await startServer("bare");
console.log(`latency POST -> notifysub handler, ${DELIVERIES_PER_S} deliveries/s (alerts/s = deliveries / clients, at most ${MAX_RATE}), ${PHASE_MS} ms per phase or ${MIN_ALERTS} alerts (after ${WARMUP} warm-up alerts); load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
// Warm both sides (JIT, connection pools) with a throwaway phase each.
await phase("bare", bare.ready, 1);
await phase("ovation", ovation.ready, 1);
console.log("clients | alerts/s | floor p50 | floor p99 | ovation p50 | ovation p99 | target p99 <= 2*floor+2ms");
for (const n of SIZES) {
  const floor = await phase("bare", bare.ready, n);
  const ours = await phase("ovation", ovation.ready, n);
  const target = 2 * floor.p99 + 2;
  const lost = floor.missing + ours.missing > 0 ? ` (missing: floor ${floor.missing}, ovation ${ours.missing})` : "";
  console.log(`${String(n).padStart(7)} | ${rateFor(n).toFixed(0).padStart(8)} | ${ms(floor.p50).padStart(9)} | ${ms(floor.p99).padStart(9)} | ${ms(ours.p50).padStart(11)} | ${ms(ours.p99).padStart(11)} | ${ours.p99 <= target ? "met" : "NOT met"} (${ms(target)})${lost}`);
}

const MEMORY_CLIENTS = 1000;
await new Promise((r) => setTimeout(r, 2000));
for (const [name, server] of [["ovation", ovation], ["bare socket.io", bare]] as const) {
  const before = await ask<{ heapUsed: number; rss: number }>(server.child, "memory");
  const sockets = await connectClients(server.ready, MEMORY_CLIENTS, () => undefined);
  await new Promise((r) => setTimeout(r, 500));
  const after = await ask<{ heapUsed: number; rss: number }>(server.child, "memory");
  for (const s of sockets) s.close();
  await new Promise((r) => setTimeout(r, 1000));
  console.log(`memory per connected ${name === "ovation" ? "browser source" : "client"} (${name}, ${MEMORY_CLIENTS} connected, after gc): heap ${((after.heapUsed - before.heapUsed) / MEMORY_CLIENTS / 1024).toFixed(1)} KiB`);
}

await stopServer(ovation.child);
await stopServer(bare.child);
