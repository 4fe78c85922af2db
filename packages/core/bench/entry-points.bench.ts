// Import cost of each @ovation/core entry point beside the whole package: each import runs in a
// fresh Node process with no module hooks and no flags (scripts/import-time.mjs, the same script for
// zod alone and for every entry), in alternating rounds (every entry once per round, zod alone first),
// BENCH_ROUNDS rounds (default 5); each figure is the median with min and max. The modules and
// packages each entry loads come from one more process per entry (scripts/import-graph.mjs), outside
// the timed rounds: its loader hook costs every module a round trip to the hooks thread.
// Target for the alerts entry: at most 1.3x the import of zod alone in the same round (every entry
// but templates and net loads zod, so a loaded machine shows as a slow zod too), and no native
// dependency.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { alternate, benchRounds, ratiosOf, report, spreadOf } from "../../../scripts/bench-figures.js";

const coreDir = fileURLToPath(new URL("..", import.meta.url));
const graphScript = fileURLToPath(new URL("../scripts/import-graph.mjs", import.meta.url));
const timeScript = fileURLToPath(new URL("../scripts/import-time.mjs", import.meta.url));
const NATIVE = ["isolated-vm"];
const ENTRIES = ["zod", "@ovation/core", "@ovation/core/contracts", "@ovation/core/alerts", "@ovation/core/templates", "@ovation/core/commands", "@ovation/core/net", "@ovation/core/plugins", "@ovation/core/plugin-kit"] as const;
const ROUNDS = benchRounds();
const TARGET = 1.3;

interface Graph {
  modules: number;
  packages: string[];
}

/** Runs `script` on `specifier` in a fresh Node process (no execArgv, the bench's environment). */
function run<T>(script: string, specifier: string): T {
  return JSON.parse(execFileSync(process.execPath, [script, specifier], { cwd: coreDir, encoding: "utf8", timeout: 30_000 })) as T;
}

const graphs = new Map<string, Graph>(ENTRIES.map((entry) => [entry, run<Graph>(graphScript, entry)]));
const times = await alternate(
  ROUNDS,
  Object.fromEntries(ENTRIES.map((entry) => [entry, () => run<{ ms: number; cpuMs: number }>(timeScript, entry)])) as Record<
    (typeof ENTRIES)[number],
    () => { ms: number; cpuMs: number }
  >,
);
const rounds = Object.fromEntries(ENTRIES.map((entry) => [entry, times[entry].map((t) => t.ms)])) as Record<(typeof ENTRIES)[number], number[]>;
const cpuRounds = Object.fromEntries(ENTRIES.map((entry) => [entry, times[entry].map((t) => t.cpuMs)])) as Record<(typeof ENTRIES)[number], number[]>;

console.log(`import time (fresh process per import, no hooks, ${ROUNDS} alternating rounds) and modules loaded, Node ${process.version}`);
console.log(["entry point".padEnd(26), "modules".padStart(8), "  native  npm packages"].join(""));
for (const entry of ENTRIES) {
  const graph = graphs.get(entry) as Graph;
  const native = graph.packages.filter((p) => NATIVE.includes(p));
  console.log([entry.padEnd(26), String(graph.modules).padStart(8), `  ${(native.join(",") || "none").padEnd(6)}  ${graph.packages.join(" ")}`].join(""));
}
for (const entry of ENTRIES) {
  report({ id: `import.${entry}`, label: `import ${entry}`, unit: "ms", rounds: ROUNDS, value: spreadOf(rounds[entry]), better: "lower" });
}
const alerts = graphs.get("@ovation/core/alerts") as Graph;
const whole = graphs.get("@ovation/core") as Graph;
report({
  id: "import.alerts-zod",
  label: "@ovation/core/alerts / zod alone, same round",
  unit: "x",
  rounds: ROUNDS,
  value: spreadOf(ratiosOf(rounds["@ovation/core/alerts"], rounds.zod)),
  better: "lower",
  target: { op: "<=", value: TARGET },
});
// The same ratio in CPU time (user + system of the importing process): on a loaded machine the wall
// clock of either side includes time spent waiting for a core, the CPU time far less so.
report({
  id: "import.alerts-zod.cpu",
  label: "@ovation/core/alerts / zod alone, CPU time, same round",
  unit: "x",
  rounds: ROUNDS,
  value: spreadOf(ratiosOf(cpuRounds["@ovation/core/alerts"], cpuRounds.zod)),
  better: "lower",
});
const native = alerts.packages.some((p) => NATIVE.includes(p));
const ratio = spreadOf(ratiosOf(rounds["@ovation/core"], rounds["@ovation/core/alerts"])).median;
console.log(
  `alerts entry: ${alerts.modules} modules, native dependency: ${native ? "YES" : "none"}; whole package: ${whole.modules} modules ` +
    `(${ratio.toFixed(1)}x the time, ${(whole.modules / alerts.modules).toFixed(1)}x the modules)`,
);
