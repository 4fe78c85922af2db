// The usual suspects of an outbound template call (proxy_pass, json), each measured in the same run
// as its floor, a bare undici POST of the same body to the same loopback receiver:
//   - the whole guarded call (GuardedHttpClient.request) against the bare POST, same concurrency;
//   - connection reuse per destination: connections the receiver saw for each side's calls;
//   - signing (HMAC-SHA256 over timestamp and body), the SSRF checks of a URL (scheme, IP literal,
//     address policy), DNS pinning (the checked lookup a host name pays per new connection) and the
//     proxy_pass body's JSON (serialising {version, event, command, args}), each in microseconds of
//     CPU per call beside the floor's CPU per request.
// The sandbox's share of a template calling proxy_pass (two renders per call) is in the commands
// bench, section e, with the CPU of each process's threads.
// Every figure is the median of BENCH_ROUNDS (default 5) alternating rounds, with min and max.
// Run: npm run bench -- outbound
import { spawn } from "node:child_process";
import { lookup } from "node:dns/promises";
import { Agent, request } from "undici";
import { GuardedHttpClient, signOvationRequest } from "@ovation/core";
import { alternate, benchRounds, ratiosOf, report, spreadOf } from "../../../scripts/bench-figures.js";

const ROUNDS = benchRounds();
const SECONDS = Number(process.env.BENCH_SECONDS ?? 1);
const CONCURRENCY = 64;

/** Answers every POST with text/plain; `GET /connections` tells how many connections it accepted. */
const RECEIVER = `
let connections = 0;
const server = require("node:http").createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    if (req.method === "GET") return res.writeHead(200, { "content-type": "text/plain" }).end(String(connections));
    res.writeHead(200, { "content-type": "text/plain" }).end("points: 42");
  });
});
server.on("connection", () => connections++);
server.keepAliveTimeout = 10000;
server.listen(0, "127.0.0.1", () => process.stdout.write(server.address().port + "\\n"));
`;

const server = spawn(process.execPath, ["-e", RECEIVER], { stdio: ["ignore", "pipe", "inherit"] });
const port = await new Promise<number>((resolve, reject) => {
  server.once("error", reject);
  server.stdout.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
});
const url = `http://127.0.0.1:${port}/api/commands`;
// The count is asked over a connection of its own, opened once before any round.
const statsAgent = new Agent({ connections: 1 });
const connections = async (): Promise<number> => Number(await (await request(`http://127.0.0.1:${port}/connections`, { dispatcher: statsAgent })).body.text());
// A proxy_pass body of the size the commands bench sends (a chat event, the command, the args).
const payload = { event: { id: "m1", message: "!bal", user: { username: "viewer1", badges: [] }, pad: "x".repeat(600) }, command: { command: "bal" }, args: ["!bal"] };
const body = JSON.stringify({ version: 1, event: payload.event, command: payload.command, args: payload.args });
const secret = "a-signing-secret-of-32-characters";
const client = new GuardedHttpClient({ allow: ["127.0.0.1", "localhost"], callsPerMinute: Number.MAX_SAFE_INTEGER });

interface Round {
  rate: number;
  /** CPU microseconds of this process per call. */
  cpuMicros: number;
  calls: number;
}

async function round(call: () => Promise<string>): Promise<Round> {
  let calls = 0;
  const until = performance.now() + SECONDS * 1000;
  const start = performance.now();
  const cpu = process.cpuUsage();
  const worker = async () => {
    while (performance.now() < until) {
      if ((await call()) !== "points: 42") throw new Error("the receiver answered something else");
      calls++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const used = process.cpuUsage(cpu);
  return { rate: calls / ((performance.now() - start) / 1000), cpuMicros: (used.user + used.system) / calls, calls };
}

const bare = async (): Promise<string> => {
  const res = await request(url, { method: "POST", headers: { "content-type": "application/json", accept: "text/plain" }, body });
  return res.body.text();
};
const guarded = async (): Promise<string> =>
  (await client.request({ channel: "bench", signingSecret: secret, method: "POST", url, headers: { "content-type": "application/json", accept: "text/plain" }, body })).body;

/** Microseconds of CPU per call of a synchronous `fn`, over about SECONDS / 4. */
function micros(fn: () => unknown): number {
  let n = 0;
  const until = performance.now() + (SECONDS * 1000) / 4;
  const cpu = process.cpuUsage();
  while (performance.now() < until) {
    for (let i = 0; i < 100; i++) fn();
    n += 100;
  }
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / n;
}

/** Microseconds of CPU per call of an asynchronous `fn`, one at a time, over about SECONDS / 4. */
async function microsAsync(fn: () => Promise<unknown>): Promise<number> {
  let n = 0;
  const until = performance.now() + (SECONDS * 1000) / 4;
  const cpu = process.cpuUsage();
  while (performance.now() < until) {
    await fn();
    n++;
  }
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / n;
}

console.log(`outbound.bench: ${ROUNDS} alternating rounds of ${SECONDS} s, ${CONCURRENCY} calls in flight, body ${body.length} bytes`);
const before = { bare: 0, guarded: 0 };
const calls = { bare: 0, guarded: 0 };
const rounds = await alternate(ROUNDS, {
  bare: async () => {
    const at = await connections();
    const r = await round(bare);
    before.bare += (await connections()) - at;
    calls.bare += r.calls;
    return r;
  },
  guarded: async () => {
    const at = await connections();
    const r = await round(guarded);
    before.guarded += (await connections()) - at;
    calls.guarded += r.calls;
    return r;
  },
});
const rate = (rs: Round[]) => rs.map((r) => r.rate);
const cpu = (rs: Round[]) => rs.map((r) => r.cpuMicros);
report({ id: "outbound.floor", label: "bare undici POST (floor)", unit: "/s", rounds: ROUNDS, value: spreadOf(rate(rounds.bare)), better: "higher" });
report({ id: "outbound.guarded", label: "GuardedHttpClient.request, same body and receiver", unit: "/s", rounds: ROUNDS, value: spreadOf(rate(rounds.guarded)), better: "higher" });
report({ id: "outbound.guarded-floor", label: "    guarded / floor, calls per second", unit: "x", rounds: ROUNDS, value: spreadOf(ratiosOf(rate(rounds.guarded), rate(rounds.bare))), better: "higher" });
report({ id: "outbound.floor.cpu", label: "    floor CPU per request", unit: "µs", rounds: ROUNDS, value: spreadOf(cpu(rounds.bare)), better: "lower" });
report({ id: "outbound.guarded.cpu", label: "    guarded CPU per request", unit: "µs", rounds: ROUNDS, value: spreadOf(cpu(rounds.guarded)), better: "lower" });
console.log(`connection reuse: the floor opened ${before.bare} connections for ${calls.bare.toLocaleString("en-US")} calls, the guarded client ${before.guarded} for ${calls.guarded.toLocaleString("en-US")} (counted at the receiver, warm-up rounds included)`);

// The suspects one by one, each beside the floor's CPU per request (same rounds).
const parsed = new URL(url);
const suspects = await alternate(ROUNDS, {
  floor: () => microsAsync(bare),
  signing: () => micros(() => signOvationRequest({ secret, body, nowMs: Date.now() })),
  ssrf: () => micros(() => client.checkUrl(parsed.href)),
  dns: () => microsAsync(() => lookup("localhost", { all: true, verbatim: true })),
  json: () => micros(() => JSON.stringify({ version: 1, event: payload.event, command: payload.command, args: payload.args })),
});
const floorCpu = suspects.floor;
for (const [id, label] of [
  ["signing", "signing: HMAC-SHA256 of timestamp and body"],
  ["ssrf", "SSRF checks of the URL (scheme, IP literal, address policy)"],
  ["dns", "DNS pinning: the lookup a host name pays per new connection"],
  ["json", "JSON: serialising the proxy_pass body"],
] as const) {
  report({ id: `outbound.${id}`, label: `${label}, share of a floor request`, unit: "x", rounds: ROUNDS, value: spreadOf(ratiosOf(suspects[id], floorCpu)), better: "lower" });
  console.log(`    ${spreadOf(suspects[id]).median.toFixed(1)} µs of CPU per call; floor request ${spreadOf(floorCpu).median.toFixed(1)} µs (one at a time)`);
}

await client.close();
await statsAgent.close();
server.kill();
