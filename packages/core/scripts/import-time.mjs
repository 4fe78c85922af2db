#!/usr/bin/env node
// Imports one entry point of @ovation/core (argv[2], e.g. "@ovation/core/alerts") in this fresh process
// with no module hooks and prints, as one JSON line, the import time in ms (wall clock) and the CPU time
// the process spent in it (cpuMs: user + system, every thread of the process), which other processes'
// load changes far less than the wall clock. The entry-point bench times
// with this script: import-graph.mjs, which lists the modules, registers a loader hook, and every
// module's resolve and load then takes a round trip to the hooks thread, which weighs on an entry with
// more modules than on zod alone and is no part of what a real program pays. Resolves the specifier
// from packages/core (the package's self-reference), like import-graph.mjs.
import { performance } from "node:perf_hooks";

const specifier = process.argv[2];
if (!specifier) {
  process.stderr.write("usage: import-time.mjs <specifier>\n");
  process.exit(2);
}
const cpu = process.cpuUsage();
const started = performance.now();
await import(specifier);
const ms = performance.now() - started;
const used = process.cpuUsage(cpu);
const cpuMs = (used.user + used.system) / 1000;
process.stdout.write(`${JSON.stringify({ specifier, ms: Math.round(ms * 10) / 10, cpuMs: Math.round(cpuMs * 10) / 10 })}\n`);
