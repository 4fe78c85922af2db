/**
 * The figures a bench reports (scripts/bench-figures.ts): `npm run bench -- --repeat N` summarises each figure by
 * its id across runs, so an id reported twice would mix two figures. `report` refuses the second one.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { report, spreadOf } from "../bench-figures.js";
import type { Figure } from "../bench-figures.js";

const figure = (id: string, label: string): Figure => ({ id, label, unit: "x", rounds: 5, value: spreadOf([1, 2, 3, 4, 5]), better: "lower", target: { op: "<=", value: 3 } });

describe("bench figures", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "ovation-figures-"));
    vi.stubEnv("OVATION_BENCH_FIGURES", join(dir, "run.jsonl"));
    vi.spyOn(console, "log").mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  it("records each figure once and refuses an id already reported, naming both labels", () => {
    report(figure("test.figures.a", "first figure"));
    report(figure("test.figures.b", "second figure"));
    expect(() => report(figure("test.figures.a", "third figure"))).toThrow(/"test\.figures\.a" reported twice: "first figure" and "third figure"/);
    const lines = readFileSync(join(dir, "run.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line) as Figure);
    expect(lines.map((line) => [line.id, line.label, line.value.median])).toEqual([
      ["test.figures.a", "first figure", 3],
      ["test.figures.b", "second figure", 3],
    ]);
  });
});
