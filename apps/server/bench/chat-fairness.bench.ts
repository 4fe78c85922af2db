// Chat fairness (issue 31): a quiet user's `POST /v1/alerts` latency (real HTTP on loopback, one
// request every 20 ms) alone, and beside a noisy user's chat in the same server process carrying
// the attack sizes of issue 31 at the save limits: 20 heavy regex commands and 500-char lines; 50
// heavy moderation patterns; a 1,000-phrase bad-word list and 250-word lines; 400 noisy messages a
// second (BENCH_CHAT_RATE). Before the chat
// budget, these delayed the quiet user's POST by 2.6 s, 6.3 s and 7.4 s. Target: the quiet p99
// beside the noise at most 50 ms above its p99 alone.
import { fork } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { serverNodeFlags } from "../bin/node-flags.mjs";

const REQUESTS = Number(process.env["BENCH_CHAT_REQUESTS"] ?? 250);
const SPACING_MS = 20;

interface Ready {
  port: number;
  token: string;
  regexCommands: number;
}

const child: ChildProcess = fork(fileURLToPath(new URL("./chat-fairness-server.ts", import.meta.url)), [], {
  execArgv: [...serverNodeFlags(), "--import", "tsx"],
  stdio: ["ignore", "inherit", "inherit", "ipc"],
});
const ready = await new Promise<Ready>((resolve, reject) => {
  child.once("message", (m) => resolve(m as Ready));
  child.once("exit", (code) => reject(new Error(`chat bench server exited with ${code}`)));
});

function ask<T>(message: Record<string, unknown>): Promise<T> {
  return new Promise((resolve) => {
    child.once("message", (m) => resolve(m as T));
    child.send(message);
  });
}

async function post(i: number): Promise<number> {
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

async function run(): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    latencies.push(await post(i));
    await new Promise((r) => setTimeout(r, SPACING_MS));
  }
  return latencies.sort((a, b) => a - b);
}

console.log(`chat fairness: quiet POST /v1/alerts, ${REQUESTS} requests one every ${SPACING_MS} ms, alone and beside a noisy user's chat`);
console.log(`noisy user: ${ready.regexCommands} commands loaded; load average ${loadavg().map((l) => l.toFixed(2)).join(" ")} (2 cores, shared machine)`);
for (let i = 0; i < 20; i++) await post(i); // warm-up
const alone = await run();
console.log("noise                                  | quiet p50 | quiet p99 | p99 - alone | noisy msgs handled | cut by budget");
console.log(`${"none (alone)".padEnd(38)} | ${ms(percentile(alone, 50)).padStart(9)} | ${ms(percentile(alone, 99)).padStart(9)} |             |                    |`);
let met = true;
let cuts = 0;
const kinds = [
  ["regex", "20 regex commands, 500-char lines"],
  ["patterns", "50 moderation patterns, 500-char lines"],
  ["words", "1,000 bad phrases, 250-word lines"],
] as const;
for (const [kind, label] of kinds) {
  await ask({ type: "noise", kind });
  const beside = await run();
  const after = await ask<{ handled: number; cuts: number }>({ type: "noise", kind: null });
  const over = percentile(beside, 99) - percentile(alone, 99);
  met &&= over <= 50;
  console.log(
    `${label.padEnd(38)} | ${ms(percentile(beside, 50)).padStart(9)} | ${ms(percentile(beside, 99)).padStart(9)} | ${ms(over).padStart(11)} | ${String(after.handled).padStart(18)} | ${after.cuts - cuts}`,
  );
  cuts = after.cuts;
}
console.log(`target: quiet p99 beside each noise <= its p99 alone + 50 ms: ${met ? "met" : "NOT met"} (load average ${loadavg()[0]?.toFixed(2)})`);
const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
child.send({ type: "stop" });
await exited;
process.exit(0);
