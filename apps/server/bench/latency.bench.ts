// End-to-end alert latency: POST /v1/alerts -> `notifysub` handler of N socket.io clients
// (N = 1, 100, 1000) at a fixed total of deliveries per second (alerts/s = deliveries / N, at most
// 200 alerts/s), so that no size saturates the floor; p50/p99, beside the floor: a bare socket.io server that
// emits what it is POSTed, between the same processes (this sender, a server child, client
// children), measured the same way, in alternating phases (BENCH_ROUNDS, default 5; medians with min
// and max). Then the server's memory per connected browser source.
import { io as connectClient } from "socket.io-client";
import type { Socket } from "socket.io-client";
import { report } from "../../../scripts/bench-figures.js";
import { ROUNDS, SIZES, TABLE_HEADER, ask, loadLine, measureSize, phase, startServer, stopServer } from "./latency-harness.js";
import type { Ready } from "./latency-harness.js";

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

const ovation = await startServer("ovation");
const bare = await startServer("bare");
console.log(loadLine("latency POST -> notifysub handler"));
// Warm both sides (JIT, connection pools) with a throwaway phase each.
await phase("bare", bare.ready, 1);
await phase("ovation", ovation.ready, 1);
console.log(`each row: medians of ${ROUNDS} alternating phases of the floor and ovation; min and max below it`);
console.log(TABLE_HEADER);
for (const n of SIZES) {
  await measureSize("latency", n, () => phase("bare", bare.ready, n), () => phase("ovation", ovation.ready, n));
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
  const kib = (after.heapUsed - before.heapUsed) / MEMORY_CLIENTS / 1024;
  console.log(`memory per connected ${name === "ovation" ? "browser source" : "client"} (${name}, ${MEMORY_CLIENTS} connected, after gc): heap ${kib.toFixed(1)} KiB`);
  // One measure (a heap difference after gc, not a timing): recorded so --repeat shows its spread across runs.
  report({ id: `latency.memory.${name}`, label: `heap per connection, ${name}`, unit: "KiB", rounds: 1, value: { median: kib, min: kib, max: kib }, better: "lower" });
}

await stopServer(ovation.child);
await stopServer(bare.child);
