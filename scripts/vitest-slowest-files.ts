// A vitest reporter (beside the default one, see vitest.config.ts): after the run, the 20 slowest
// test files with their time (import and collection, setup, every test and hook) and their test
// count, so the files that make `npm test` long are named at the end of every run, CI's included.
// Its lines never start with "Tests", so the summary line .ci/run reads stays the default reporter's.
import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

const SHOWN = 20;

/** Milliseconds a test file took: preparing, importing and collecting it, its setup, its tests and hooks. */
export function fileMilliseconds(module: TestModule): number {
  const d = module.diagnostic();
  return d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
}

export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    if (modules.length === 0) return;
    const rows = modules
      .map((module) => ({ file: relative(process.cwd(), module.moduleId), ms: fileMilliseconds(module), tests: [...module.children.allTests()].length }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SHOWN);
    const total = modules.reduce((sum, module) => sum + fileMilliseconds(module), 0);
    const lines = [`\n${Math.min(SHOWN, modules.length)} slowest test files of ${modules.length} (their own time; files run in parallel, ${(total / 1000).toFixed(0)} s in all):`];
    for (const row of rows) lines.push(`  ${(row.ms / 1000).toFixed(1).padStart(7)} s  ${String(row.tests).padStart(4)} tests  ${row.file}`);
    process.stdout.write(`${lines.join("\n")}\n`);
  }
}
