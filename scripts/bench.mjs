#!/usr/bin/env node
// Runs every benchmark of the workspace (files `bench/*.bench.ts` in each package) one after the
// other, each in its own Node process started with --no-node-snapshot (isolated-vm needs it).
// Benchmarks import the built packages (dist), so `npm run bench` builds first.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

const roots = ["packages", "plugins", "apps"];
const only = process.argv[2];
let failed = 0;
for (const root of roots) {
  if (!existsSync(root)) continue;
  for (const pkg of readdirSync(root)) {
    const dir = join(root, pkg, "bench");
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".bench.ts")).sort()) {
      const path = join(dir, file);
      if (only && !path.includes(only)) continue;
      console.log(`\n=== ${path}`);
      const run = spawnSync(process.execPath, ["--no-node-snapshot", "--expose-gc", "--import", "tsx", path], {
        stdio: "inherit",
      });
      if (run.status !== 0) failed++;
    }
  }
}
process.exit(failed ? 1 : 0);
