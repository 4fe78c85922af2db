#!/usr/bin/env node
// Imports one entry point of @ovation/core (argv[2], e.g. "@ovation/core/alerts") in this fresh process
// and prints, as one JSON line: the import time in ms, the modules loaded (ESM URLs seen by a loader
// hook plus CommonJS files in require.cache) and the npm packages among them. Used by the module-graph
// test and the entry-point bench. Resolves the specifier from packages/core (the package's self-reference).
import { createRequire, register } from "node:module";
import { performance } from "node:perf_hooks";
import { MessageChannel } from "node:worker_threads";

const specifier = process.argv[2];
if (!specifier) {
  process.stderr.write("usage: import-graph.mjs <specifier>\n");
  process.exit(2);
}
const esm = new Set();
const { port1, port2 } = new MessageChannel();
port1.on("message", (url) => esm.add(url));
register("./import-graph-hooks.mjs", import.meta.url, { data: { port: port2 }, transferList: [port2] });

const started = performance.now();
await import(specifier);
const ms = performance.now() - started;
// Let the hooks thread deliver its last messages.
await new Promise((resolve) => setTimeout(resolve, 100));
port1.close();

const cjs = Object.keys(createRequire(import.meta.url).cache).map((file) => `file://${file}`);
const modules = [...new Set([...esm, ...cjs])].filter((url) => !url.startsWith("node:") && !url.endsWith("import-graph.mjs"));
const packageOf = (url) => {
  const tail = url.split("/node_modules/").pop();
  if (tail === url) return null;
  const parts = tail.split("/");
  return parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
};
const packages = [...new Set(modules.map(packageOf).filter((name) => name !== null))].sort();
const builtins = [...new Set([...esm].filter((url) => url.startsWith("node:")))].sort();
process.stdout.write(`${JSON.stringify({ specifier, ms: Math.round(ms * 10) / 10, modules: modules.length, packages, builtins })}\n`);
