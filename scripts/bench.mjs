#!/usr/bin/env node
// Runs every benchmark of the workspace (files `bench/*.bench.ts` in each package) one after the
// other, each in its own Node process started with --no-node-snapshot (isolated-vm needs it).
// Benchmarks import the built packages (dist), so `npm run bench` builds first.
//
//   npm run bench                       every bench once
//   npm run bench -- commands           only the benches whose path contains "commands"
//   npm run bench -- --repeat 3         the whole bench three times, then per figure the median of
//                                       the three runs' medians and their spread (min, max)
//
// Each bench records its figures (scripts/bench-figures.ts) in a file this script names in
// OVATION_BENCH_FIGURES. A bench that runs past BENCH_FILE_TIMEOUT_S (default 600 s) is killed with
// every process it started (it runs in a process group of its own) and counted as failed, so a whole
// run is bounded.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir, loadavg } from "node:os";
import { join } from "node:path";

const args = process.argv.slice(2);
let repeat = 1;
let only;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--repeat") {
    repeat = Number(args[++i]);
    if (!Number.isInteger(repeat) || repeat < 1 || repeat > 20) {
      console.error(`--repeat needs a whole number from 1 to 20, got ${args[i]}`);
      process.exit(2);
    }
  } else if (args[i].startsWith("--repeat=")) {
    repeat = Number(args[i].slice("--repeat=".length));
  } else only = args[i];
}
const timeoutMs = Number(process.env.BENCH_FILE_TIMEOUT_S ?? 600) * 1000;

const roots = ["packages", "plugins", "apps"];
const files = [];
for (const root of roots) {
  if (!existsSync(root)) continue;
  for (const pkg of readdirSync(root).sort()) {
    const dir = join(root, pkg, "bench");
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".bench.ts")).sort()) {
      const path = join(dir, file);
      if (!only || path.includes(only)) files.push(path);
    }
  }
}

const scratch = mkdtempSync(join(tmpdir(), "ovation-bench-"));

/** Runs one bench file in a process group of its own; kills the group after `timeoutMs` or on Ctrl-C. */
function runBench(path, run) {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, ["--no-node-snapshot", "--expose-gc", "--import", "tsx", path], {
      stdio: "inherit",
      detached: true,
      env: { ...process.env, OVATION_BENCH_FIGURES: join(scratch, `run-${run}.jsonl`) },
    });
    const killGroup = () => {
      try {
        process.kill(-proc.pid, "SIGKILL");
      } catch {
        // the group has already ended
      }
    };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    const interrupt = () => {
      killGroup();
      process.exit(130);
    };
    process.once("SIGINT", interrupt);
    proc.once("exit", (status, signal) => {
      clearTimeout(timer);
      process.off("SIGINT", interrupt);
      // Whatever the bench left behind (a receiver, server children) ends with it.
      killGroup();
      resolve({ status, signal: timedOut ? "SIGKILL" : signal });
    });
  });
}
const started = Date.now();
const load = () => loadavg().map((n) => n.toFixed(1)).join(" ");
let failed = 0;
for (let run = 1; run <= repeat; run++) {
  for (const path of files) {
    console.log(`\n=== ${path}${repeat > 1 ? ` (run ${run} of ${repeat})` : ""}, load average ${load()}`);
    const begin = Date.now();
    const child = await runBench(path, run);
    const seconds = ((Date.now() - begin) / 1000).toFixed(0);
    if (child.status !== 0) {
      failed++;
      console.log(`=== ${path} FAILED after ${seconds} s${child.signal ? ` (${child.signal}${child.signal === "SIGKILL" ? `, over ${timeoutMs / 1000} s` : ""})` : ""}`);
    } else console.log(`=== ${path}: ${seconds} s`);
  }
}

// Per figure: the median of the runs' medians, with their min and max (the spread across runs).
// An id seen twice in one run (two bench files naming a figure alike) would mix two figures: it fails the run.
const byId = new Map();
for (let run = 1; run <= repeat; run++) {
  const file = join(scratch, `run-${run}.jsonl`);
  if (!existsSync(file)) continue;
  const seen = new Set();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line === "") continue;
    const figure = JSON.parse(line);
    if (seen.has(figure.id)) {
      failed++;
      console.log(`=== figure id "${figure.id}" ("${figure.label}") reported twice in run ${run}: rename one of them`);
    }
    seen.add(figure.id);
    const entry = byId.get(figure.id) ?? { figure, medians: [], met: 0 };
    entry.medians.push(figure.value.median);
    const met = figure.target === undefined || (figure.target.op === ">=" ? figure.value.median >= figure.target.value : figure.value.median <= figure.target.value);
    if (met) entry.met++;
    byId.set(figure.id, entry);
  }
}
rmSync(scratch, { recursive: true, force: true });
const format = (value, unit) => (["x", "ms", "µs", "KiB"].includes(unit) ? value.toFixed(2) : Math.round(value).toLocaleString("en-US"));
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
if (byId.size > 0) {
  console.log(`\n=== figures over ${repeat} run${repeat > 1 ? "s" : ""} (${minutes} min, load average at the end ${load()}):`);
  console.log("median of the runs' medians (min .. max across runs), unit, target, runs that met it");
  for (const { figure, medians, met } of byId.values()) {
    const sorted = [...medians].sort((a, b) => a - b);
    const median = sorted[Math.floor((sorted.length - 1) / 2)];
    const target = figure.target === undefined ? "" : `  target ${figure.target.op} ${format(figure.target.value, figure.unit)}: met in ${met} of ${medians.length}`;
    console.log(
      `${figure.label.padEnd(62)} ${format(median, figure.unit)} (${format(sorted[0], figure.unit)} .. ${format(sorted[sorted.length - 1], figure.unit)}) ${figure.unit}${target}`,
    );
  }
}
console.log(`\nbench: ${files.length} file(s) x ${repeat} run(s) in ${minutes} min, ${failed} failed`);
process.exit(failed ? 1 : 0);
