#!/usr/bin/env node
// The `ovation` CLI. isolated-vm 5 on Node 20 needs --no-node-snapshot in every process that loads
// it, so this re-executes node with the flag when it is missing, forwarding signals and the exit status.
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { fileURLToPath } from "node:url";

if (!process.execArgv.includes("--no-node-snapshot")) {
  const child = spawn(process.execPath, ["--no-node-snapshot", ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: "inherit",
  });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => child.kill(signal));
  }
  // A child killed by a signal exits like a shell reports it: 128 + the signal's number.
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1)));
} else {
  const { main } = await import("../dist/cli/index.js");
  process.exit(await main(process.argv.slice(2)));
}
