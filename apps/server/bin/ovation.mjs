#!/usr/bin/env node
// The `ovation` CLI. isolated-vm 5 on Node 20 needs --no-node-snapshot in every process that loads
// it, so this re-executes node with the flag when it is missing, with the server's other flags
// (node-flags.mjs: a larger young generation), forwarding signals and the exit status.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { constants } from "node:os";
import { fileURLToPath } from "node:url";
import { serverNodeFlags } from "./node-flags.mjs";

if (!process.execArgv.includes("--no-node-snapshot")) {
  const child = spawn(process.execPath, [...serverNodeFlags(), ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: "inherit",
  });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => child.kill(signal));
  }
  // A child killed by a signal exits like a shell reports it: 128 + the signal's number.
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1)));
} else {
  const entry = new URL("../dist/cli/index.js", import.meta.url);
  if (!existsSync(entry)) {
    process.stderr.write("error: the server is not built yet: run `npm run build` (or `npm start`, which builds) in the repository first. (OVATION_ERR_CLI_NOT_BUILT)\n");
    process.exit(1);
  }
  const { main } = await import(entry.href);
  process.exit(await main(process.argv.slice(2)));
}
