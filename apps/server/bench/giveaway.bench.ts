// Giveaway entries (issue 31): a giveaway fed `!join` chat entries, timed until each is durable,
// and a quiet user's `POST /v1/alerts` (real HTTP on loopback) meanwhile: first on an empty
// giveaway, then once it holds 100,000 entries. Before entries were stored in chunks, a fed giveaway
// slowed from about 190 to 20 entries/s by 26,750 entries and the quiet POST took up to 33 s.
// Target: entry p99 and quiet POST p99 at 100,000 entries <= 1.2x their value on an empty giveaway.
// Run on the embedded store, then on PostgreSQL (a temporary server started like the tests' one).
import { fork } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { freshDatabase } from "../src/__tests__/services/postgres.js";

const ENTRIES = Number(process.env["BENCH_GIVEAWAY_ENTRIES"] ?? 100_000);
const SAMPLE = Number(process.env["BENCH_GIVEAWAY_SAMPLE"] ?? 600);
const RATE = 100;
const POST_SPACING_MS = 40;

interface Ready {
  port: number;
  token: string;
  description: string;
}

function start(databaseUrl: string | undefined): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = fork(fileURLToPath(new URL("./giveaway-server.ts", import.meta.url)), databaseUrl ? [databaseUrl] : [], {
    execArgv: ["--no-node-snapshot", "--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("message", (m) => resolve({ child, ready: m as Ready }));
    child.once("exit", (code) => reject(new Error(`giveaway bench server exited with ${code}`)));
  });
}

function ask<T>(child: ChildProcess, message: Record<string, unknown>): Promise<T> {
  return new Promise((resolve) => {
    child.once("message", (m) => resolve(m as T));
    child.send(message);
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

const p = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((q / 100) * sorted.length))] ?? NaN;
};
const ms = (v: number) => `${v.toFixed(2)} ms`;

/** Entries fed at RATE a second while the quiet user POSTs one alert every POST_SPACING_MS. */
async function phase(child: ChildProcess, ready: Ready): Promise<{ entries: number[]; posts: number[]; stored: number }> {
  const fed = ask<{ times: number[]; entries: number }>(child, { type: "feed", count: SAMPLE, rate: RATE });
  const posts: number[] = [];
  let done = false;
  void fed.then(() => (done = true));
  for (let i = 0; !done; i++) {
    posts.push(await post(ready, i));
    await new Promise((r) => setTimeout(r, POST_SPACING_MS));
  }
  const { times, entries } = await fed;
  return { entries: times, posts, stored: entries };
}

async function measure(backend: "embedded files" | "PostgreSQL"): Promise<void> {
  const { child, ready } = await start(backend === "PostgreSQL" ? await freshDatabase() : undefined);
  for (let i = 0; i < 20; i++) await post(ready, i); // warm-up
  const empty = await phase(child, ready);
  const fillStart = performance.now();
  await ask(child, { type: "fill", to: ENTRIES - SAMPLE });
  const fillSeconds = (performance.now() - fillStart) / 1000;
  const full = await phase(child, ready);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.send({ type: "stop" });
  await exited;
  console.log(`\n${backend} (${ready.description.replace(/ at .*/, "")}): ${SAMPLE} entries at ${RATE}/s, quiet POST every ${POST_SPACING_MS} ms; fill to ${ENTRIES - SAMPLE} took ${fillSeconds.toFixed(1)} s (${((ENTRIES - 2 * SAMPLE) / fillSeconds).toFixed(0)} entries/s)`);
  console.log("giveaway holds        | entry p50 | entry p99 | POST p50 | POST p99");
  for (const [label, r] of [[`empty (to ${empty.stored})`, empty], [`${full.stored - SAMPLE} (to ${full.stored})`, full]] as const) {
    console.log(`${label.padEnd(21)} | ${ms(p(r.entries, 50)).padStart(9)} | ${ms(p(r.entries, 99)).padStart(9)} | ${ms(p(r.posts, 50)).padStart(8)} | ${ms(p(r.posts, 99)).padStart(8)}`);
  }
  const entryRatio = p(full.entries, 99) / p(empty.entries, 99);
  const postRatio = p(full.posts, 99) / p(empty.posts, 99);
  console.log(`ratio p99 (full / empty): entries ${entryRatio.toFixed(2)}, POST ${postRatio.toFixed(2)} (target <= 1.2: ${entryRatio <= 1.2 && postRatio <= 1.2 ? "met" : "NOT met"}; load average ${loadavg()[0]?.toFixed(2)}, 2 cores, shared machine)`);
}

console.log("giveaway entries: entry and quiet alert POST latency on an empty giveaway and at 100,000 entries");
await measure("embedded files");
await measure("PostgreSQL");
process.exit(0);
