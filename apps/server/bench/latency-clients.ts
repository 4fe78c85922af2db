// A client process for latency.bench.ts: connects `count` socket.io clients to a server, joins the
// room, and records, for every `notifysub`, the time since the alert's `sent` stamp (wall clock with
// sub-millisecond resolution, comparable between processes of one machine).
import { writeFileSync } from "node:fs";
import { io as connectClient } from "socket.io-client";
import type { Socket } from "socket.io-client";

interface Start {
  type: "start";
  url: string;
  room: string;
  browserSourceToken: string;
  count: number;
  /** Whether the first client acknowledges each alert, as the browser-source page does. */
  ack: boolean;
  warmup: number;
}

const now = () => performance.timeOrigin + performance.now();
const latencies: number[] = [];
// Diagnosis: with BENCH_TRACE_FILE, every delivery's [seq, sent, latency] is written to
// `<BENCH_TRACE_FILE>.<port>.<pid>.json` when the results are asked for (not during the phase).
const traceFile = process.env["BENCH_TRACE_FILE"];
const trace: Array<[number, number, number]> = [];
let port = "";
let received = 0;
const sockets: Socket[] = [];

process.on("message", (message: Start | { type: "count" } | { type: "results" } | { type: "stop" }) => {
  if (message.type === "start") void start(message);
  if (message.type === "count") process.send?.({ type: "count", received });
  if (message.type === "results") {
    if (traceFile) writeFileSync(`${traceFile}.${port}.${process.pid}.json`, JSON.stringify(trace));
    process.send?.({ type: "results", latencies, received });
  }
  if (message.type === "stop") {
    for (const s of sockets) s.close();
    process.exit(0);
  }
});

async function start(options: Start): Promise<void> {
  port = new URL(options.url).port;
  for (let begin = 0; begin < options.count; begin += 100) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(100, options.count - begin) }, (_, i) => {
        const auth = options.browserSourceToken ? { browserSourceToken: options.browserSourceToken } : {};
        const socket = connectClient(options.url, { auth, transports: ["websocket"], reconnection: false, forceNew: true, timeout: 30_000 });
        const acks = options.ack && begin === 0 && i === 0;
        socket.on("notifysub", (n: { notification?: { id?: string }; event?: { seq?: number; sent?: number } }) => {
          const at = now();
          received++;
          const data = n.event;
          if (data?.sent !== undefined && (data.seq ?? 0) >= options.warmup) {
            latencies.push(at - data.sent);
            if (traceFile) trace.push([data.seq ?? -1, data.sent, at - data.sent]);
          }
          if (acks) socket.emit("ack", n.notification?.id ?? "");
        });
        return new Promise<Socket>((resolve, reject) => {
          socket.once("connect", () => {
            socket.once("joined", () => resolve(socket));
            socket.emit("room", options.room);
          });
          socket.once("connect_error", reject);
        });
      }),
    );
    sockets.push(...batch);
  }
  process.send?.({ type: "ready" });
}
