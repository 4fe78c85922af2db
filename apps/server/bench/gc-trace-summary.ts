// Reads the server logs of a diag-two-nodes.ts run made with V8's GC trace and prints, per server,
// its scavenges during its own phases: how many (per 1,000 alerts), their pauses and the time of the
// phase that copies (`scavenge.parallel`) against the roots' and the weak references' share, and
// the bytes that survived and were promoted per alert (these do not depend on how loaded the
// machine is). Not part of `npm run bench`.
//
//   BENCH_DIAG_CLIENTS=1 BENCH_SERVER_NODE_FLAGS=--trace-gc-nvp BENCH_SERVER_LOG_DIR=/tmp/gc \
//     node --no-node-snapshot --import tsx apps/server/bench/diag-two-nodes.ts
//   node --import tsx apps/server/bench/gc-trace-summary.ts /tmp/gc
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { PHASE_MS, WARMUP, rateFor } from "./latency-harness.js";

const dir = process.argv[2];
if (!dir) throw new Error("usage: gc-trace-summary.ts <BENCH_SERVER_LOG_DIR of a diag-two-nodes.ts run>");
const clients = Number(process.env["BENCH_DIAG_CLIENTS"] ?? 1);
const alertsPerPhase = WARMUP + Math.round((PHASE_MS / 1000) * rateFor(clients));

type Gc = Record<string, string>;
/** The GC trace lines between the `--- delay` markers latency-server.ts writes between phases. */
function segments(file: string): Gc[][] {
  const out: Gc[][] = [[]];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.startsWith("--- delay")) out.push([]);
    else if (line.includes(" gc=")) out.at(-1)?.push(Object.fromEntries([...line.matchAll(/(\S+)=(\S+)/g)].map((m) => [m[1] as string, m[2] as string])));
  }
  return out;
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? NaN;

for (const name of readdirSync(dir).filter((f) => f.endsWith(".log")).sort()) {
  const all = segments(join(dir, name));
  // Each diag round: a marker, the floor's phase, a marker, Ovation's phase, a marker.
  const own = name.startsWith("ovation") ? 2 : 1;
  const rounds = Math.floor((all.length - 1) / 3);
  const gcs = Array.from({ length: rounds }, (_, r) => all[3 * r + own] ?? []).flat();
  const scavenges = gcs.filter((g) => g["gc"] === "s");
  const alerts = rounds * alertsPerPhase;
  const num = (g: Gc, k: string) => Number(g[k] ?? 0);
  const sum = (k: string) => scavenges.reduce((s, g) => s + num(g, k), 0);
  const med = (k: string) => median(scavenges.map((g) => num(g, k)));
  console.log(
    `${name.replace(/\.log$/, "").padEnd(16)} ${rounds} phases: ${scavenges.length} scavenges (${((scavenges.length * 1000) / alerts).toFixed(1)} per 1,000 alerts), ${gcs.length - scavenges.length} other GCs | ` +
      `pause median ${med("pause").toFixed(1)} max ${Math.max(0, ...scavenges.map((g) => num(g, "pause"))).toFixed(1)} ms; medians of parallel (copying) ${med("scavenge.parallel").toFixed(1)}, roots ${med("scavenge.roots").toFixed(2)}, weak ${med("scavenge.weak").toFixed(2)}, free remembered set ${med("scavenge.free_remembered_set").toFixed(2)} ms | ` +
      `per alert: allocated ${(sum("allocated") / alerts / 1024).toFixed(1)} KB, survived ${(sum("new_space_survived") / alerts).toFixed(0)} B, promoted ${(sum("promoted") / alerts).toFixed(0)} B`,
  );
}
