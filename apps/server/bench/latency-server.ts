// A server process for the latency benches: either Ovation (`ovation`) or a bare socket.io server
// that emits what it is POSTed (`bare`, the floor). Reports its port (and credentials) over IPC, and
// its memory on request. For several nodes: BENCH_REDIS_URL puts either on the Redis streams adapter
// (Ovation through OVATION_REDIS_URL), BENCH_DATABASE_URL keeps Ovation's store in PostgreSQL,
// BENCH_SERVER_ID names the node, and BENCH_JOIN (the JSON `ready` of the first node) makes a node
// join that installation instead of creating its user.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { PerformanceObserver, constants as perfConstants, monitorEventLoopDelay } from "node:perf_hooks";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeHeapSnapshot } from "node:v8";
import { Session } from "node:inspector/promises";
import { createAdapter } from "@socket.io/redis-streams-adapter";
import { Redis } from "ioredis";
import pg from "pg";
import { Server } from "socket.io";
import { pino } from "pino";
import { buildDefaultAlertSet } from "@ovation/core";
import { buildApp, loadConfig } from "@ovation/server";
import type { OvationApp } from "@ovation/server";

type Message = { type: "memory" } | { type: "delay" } | { type: "stop" } | { type: "snapshot"; file: string } | { type: "sampling-start" } | { type: "sampling-stop"; file: string };

const gc = (globalThis as { gc?: () => void }).gc;
function memory(): { heapUsed: number; rss: number } {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, rss: m.rss };
}

function send(message: Record<string, unknown>): void {
  process.send?.(message);
}

const env = process.env;

// Event-loop delay since the last `delay` request (diagnosis: a blocked loop delays every emit).
const loopDelay = monitorEventLoopDelay({ resolution: 1 });
loopDelay.enable();

// With BENCH_DIAG (diag-two-nodes.ts): what the loop did meanwhile, to tell a stall's cause. GC
// pauses (count, total, longest, and the longest major one), the CPU time used, and the longest
// stalls seen by a 5 ms timer with when they began, so a stall can be matched with a GC pause.
const diagnose = env["BENCH_DIAG"] === "1";
const gcs = { count: 0, totalMs: 0, maxMs: 0, major: 0, majorMaxMs: 0 };
const gcLog: Array<{ at: number; ms: number; kind: number }> = [];
const stalls: Array<{ at: number; ms: number }> = [];
let cpuFrom = process.cpuUsage();
if (diagnose) {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = ((e as { detail?: unknown }).detail as { kind?: number } | undefined)?.kind ?? 0;
      gcs.count++;
      gcs.totalMs += e.duration;
      gcs.maxMs = Math.max(gcs.maxMs, e.duration);
      if (kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) {
        gcs.major++;
        gcs.majorMaxMs = Math.max(gcs.majorMaxMs, e.duration);
      }
      if (e.duration >= 5) gcLog.push({ at: e.startTime, ms: e.duration, kind });
    }
  }).observe({ entryTypes: ["gc"] });
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last > 25) stalls.push({ at: last, ms: now - last - 5 });
    last = now;
  }, 5).unref();
}
// With BENCH_DIAG: the statements this process sent PostgreSQL (each a round trip), counted at pg's client.
let pgQueries = 0;
if (diagnose) {
  const query = pg.Client.prototype.query as unknown as (...args: unknown[]) => unknown;
  (pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: pg.Client, ...args: unknown[]) {
    pgQueries++;
    return query.apply(this, args);
  };
}
function delay(): Record<string, unknown> {
  // With the server's stdout in a file (BENCH_SERVER_LOG_DIR, latency-harness.ts): a marker between
  // phases, so V8's GC trace lines (`--trace-gc-nvp`) can be told apart per phase.
  if (env["BENCH_SERVER_LOG_DIR"]) process.stdout.write(`--- delay ${performance.now().toFixed(0)}\n`);
  const r = { p50: loopDelay.percentile(50) / 1e6, p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 };
  loopDelay.reset();
  if (!diagnose) return r;
  const cpu = process.cpuUsage(cpuFrom);
  cpuFrom = process.cpuUsage();
  const top = stalls.sort((a, b) => b.ms - a.ms).slice(0, 4).map((s) => ({ ...s, gc: gcLog.filter((g) => g.at + g.ms >= s.at && g.at <= s.at + s.ms + 5) }));
  const out = { ...r, gc: { ...gcs }, cpuMs: (cpu.user + cpu.system) / 1000, stalls: top, heapMb: process.memoryUsage().heapUsed / 2 ** 20, pgQueries };
  pgQueries = 0;
  Object.assign(gcs, { count: 0, totalMs: 0, maxMs: 0, major: 0, majorMaxMs: 0 });
  gcLog.length = 0;
  stalls.length = 0;
  return out;
}


const inspector = new Session();
async function samplingStart(): Promise<void> {
  inspector.connect();
  await inspector.post("HeapProfiler.enable");
  // BENCH_DIAG_SAMPLING_ALL=1: every allocation (what makes the scavenges come), not only survivors.
  const all = env["BENCH_DIAG_SAMPLING_ALL"] === "1";
  await inspector.post("HeapProfiler.startSampling", { samplingInterval: 8192, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: all });
}
async function samplingStop(file: string): Promise<void> {
  // A scavenge first: what is still young and dead now must not count as outliving it.
  (gc as ((options: { type: "minor" }) => void) | undefined)?.({ type: "minor" });
  const { profile } = await inspector.post("HeapProfiler.stopSampling");
  writeFileSync(file, JSON.stringify(profile));
  inspector.disconnect();
}

async function ovation(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "ovation-bench-"));
  const config = loadConfig({
    OVATION_DATA_DIR: dir,
    HOST: "127.0.0.1",
    PORT: "0",
    OVATION_RATE_LIMIT_PER_MINUTE: "100000000",
    OVATION_LOG_LEVEL: "silent",
    ...(env["BENCH_DATABASE_URL"] ? { OVATION_DATABASE_URL: env["BENCH_DATABASE_URL"] } : {}),
    ...(env["BENCH_REDIS_URL"] ? { OVATION_REDIS_URL: env["BENCH_REDIS_URL"] } : {}),
    ...(env["BENCH_SERVER_ID"] ? { OVATION_SERVER_ID: env["BENCH_SERVER_ID"] } : {}),
  });
  const app = await buildApp({ config, logger: pino({ level: "silent" }) });
  const joined = env["BENCH_JOIN"] ? (JSON.parse(env["BENCH_JOIN"]) as { token: string; room: string; browserSourceToken: string }) : null;
  const credentials = joined ?? seed(app.ovation.repos);
  await app.ovation.repos.store.persisted();
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  process.on("message", (m: Message) => {
    if (m.type === "memory") send({ type: "memory", ...memory() });
    if (m.type === "delay") send({ type: "delay", ...delay() });
    // Diagnosis (diag-two-nodes.ts, BENCH_DIAG_SNAPSHOT): what is alive now, to tell what a scavenge copies.
    if (m.type === "snapshot") send({ type: "snapshot", file: writeHeapSnapshot(m.file) });
    // Diagnosis (BENCH_DIAG_SAMPLING): the sampled allocations of a phase that outlived the young
    // generation (still alive, or collected by a major GC only): what scavenges copy and promote.
    if (m.type === "sampling-start") void samplingStart().then(() => send({ type: "sampling-start" }));
    if (m.type === "sampling-stop") void samplingStop(m.file).then(() => send({ type: "sampling-stop", file: m.file }));
    if (m.type === "stop") void app.close().then(() => (rmSync(dir, { recursive: true, force: true }), process.exit(0)));
  });
  // This node's own port after the credentials: a joining node's BENCH_JOIN is the first node's
  // `ready`, port included, which put every "node B" client on node A (issue 25).
  send({ type: "ready", ...credentials, port });
}

/** The bench's user, alert set, token and browser source in a new installation. */
function seed(repos: OvationApp["ovation"]["repos"]): { token: string; room: string; browserSourceToken: string } {
  const user = repos.users.create({ name: "bench" });
  const { id: _i, user_id: _u, active: _a, ...set } = buildDefaultAlertSet({ id: 1, user_id: user.id });
  repos.alertSets.create({ user_id: user.id, name: "bench", version: 4, config: set });
  const { token } = repos.tokens.create({ user_id: user.id, name: "bench", scopes: ["alerts:manage"] });
  const source = repos.browserSources.findOrCreate(user.id, "alerts", null).record;
  return { token, room: `${user.uuid}.ovation.${user.id}`, browserSourceToken: source.access_token };
}

async function bare(): Promise<void> {
  const http = createServer((req, res) => {
    if (req.method !== "POST" || req.url !== "/emit") {
      res.writeHead(404).end();
      return;
    }
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => {
      const payload = JSON.parse(body) as unknown;
      io.to("bench").emit("notifysub", payload);
      res.writeHead(201, { "content-type": "application/json" }).end(body);
    });
  });
  // With Redis: the same adapter (and options) Ovation uses on several nodes.
  const redisUrl = env["BENCH_REDIS_URL"];
  const io = new Server(http, {
    serveClient: false,
    ...(redisUrl
      ? {
          adapter: createAdapter(new Redis(redisUrl, { maxRetriesPerRequest: null }), { streamName: "bench:socket.io", channelPrefix: "bench:socket.io", onlyPlaintext: true, blockTimeInMs: 1_000 }),
          connectionStateRecovery: { maxDisconnectionDuration: 120_000, skipMiddlewares: false },
        }
      : {}),
  });
  io.on("connection", (socket) => {
    socket.on("room", (room: string) => {
      void socket.join(room === "bench" ? "bench" : "none");
      socket.emit("joined", { room });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  process.on("message", (m: Message) => {
    if (m.type === "memory") send({ type: "memory", ...memory() });
    if (m.type === "delay") send({ type: "delay", ...delay() });
    if (m.type === "stop") {
      void io.close();
      process.exit(0);
    }
  });
  send({ type: "ready", port, token: "", room: "bench", browserSourceToken: "" });
}

await (process.argv[2] === "bare" ? bare() : ovation());
