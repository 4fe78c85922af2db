#!/usr/bin/env node
// Imports one entry point of @ovation/core (argv[2], e.g. "@ovation/core/alerts") in this fresh process
// with no module hooks and prints, as one JSON line, the import time in ms. The entry-point bench times
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
const started = performance.now();
await import(specifier);
const ms = performance.now() - started;
process.stdout.write(`${JSON.stringify({ specifier, ms: Math.round(ms * 10) / 10 })}\n`);
