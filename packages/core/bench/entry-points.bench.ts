// Import cost of each @ovation/core entry point beside the whole package: each import runs in a
// fresh Node process (scripts/import-graph.mjs), best of 5 runs. Target for the alerts entry:
// under 150 ms and no native dependency. `zod` alone is printed as the reference floor of the same
// run (every entry but templates and net loads it), so a loaded machine shows as a high floor.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const coreDir = fileURLToPath(new URL("..", import.meta.url));
const script = fileURLToPath(new URL("../scripts/import-graph.mjs", import.meta.url));
const NATIVE = ["isolated-vm"];
const ENTRIES = ["zod", "@ovation/core", "@ovation/core/contracts", "@ovation/core/alerts", "@ovation/core/templates", "@ovation/core/commands", "@ovation/core/net", "@ovation/core/plugins", "@ovation/core/plugin-kit"];
const RUNS = 5;

interface Graph {
  ms: number;
  modules: number;
  packages: string[];
}

function measure(specifier: string): Graph {
  let best: Graph | null = null;
  for (let run = 0; run < RUNS; run++) {
    const graph = JSON.parse(execFileSync(process.execPath, [script, specifier], { cwd: coreDir, encoding: "utf8", timeout: 30_000 })) as Graph;
    if (best === null || graph.ms < best.ms) best = graph;
  }
  return best as Graph;
}

console.log(`import time (best of ${RUNS} fresh processes) and modules loaded, Node ${process.version}`);
console.log(["entry point".padEnd(26), "ms".padStart(7), "modules".padStart(8), "  native  npm packages"].join(""));
const results = new Map<string, Graph>();
for (const entry of ENTRIES) {
  const graph = measure(entry);
  results.set(entry, graph);
  const native = graph.packages.filter((p) => NATIVE.includes(p));
  console.log(
    [entry.padEnd(26), graph.ms.toFixed(1).padStart(7), String(graph.modules).padStart(8), `  ${(native.join(",") || "none").padEnd(6)}  ${graph.packages.join(" ")}`].join(""),
  );
}
const alerts = results.get("@ovation/core/alerts");
const whole = results.get("@ovation/core");
if (alerts && whole) {
  const native = alerts.packages.some((p) => NATIVE.includes(p));
  console.log(
    `alerts entry: ${alerts.ms.toFixed(1)} ms (target < 150 ms: ${alerts.ms < 150 ? "met" : "MISSED"}), native dependency: ${native ? "YES" : "none"}; ` +
      `whole package: ${whole.ms.toFixed(1)} ms, ${whole.modules} modules (${(whole.ms / alerts.ms).toFixed(1)}x the time, ${(whole.modules / alerts.modules).toFixed(1)}x the modules)`,
  );
}
