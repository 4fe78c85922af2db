import { readdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { TemplateRenderError, TemplateSyntaxError } from "../template-errors.js";
import { TemplateSandbox } from "../template-sandbox.js";
import { CORPUS_TIMEOUT_MS, recordingFunctions, variables } from "./template-test-kit.js";

/** The Twig cases of fixtures/templates/twig/ (written from Twig's documentation), rendered in the sandbox. */
type Case = { name: string; source: string; group?: string } & ({ expected: string } | { refused: string } | { error: string });
const folder = new URL("../../../../../fixtures/templates/twig/", import.meta.url);
const files = readdirSync(folder).filter((name) => name.endsWith(".json")).sort();

describe("Twig corpus (fixtures/templates/twig)", () => {
  // What the templates answer is under test here, not the clock: a time limit a loaded CI machine cannot hit.
  const sandbox = new TemplateSandbox({ timeoutMs: CORPUS_TIMEOUT_MS });
  afterAll(() => sandbox.close());

  it("holds cases for every group", () => {
    expect(files).toEqual(["filters.json", "functions.json", "literals.json", "operators.json", "tags.json", "tests.json"]);
  });

  it("counts its cases in its README, per file and per group", () => {
    const readme = readFileSync(new URL("README.md", folder), "utf8");
    const row = (label: string): number => Number(new RegExp(`^\\| ${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\|.*? (\\d+) \\|$`, "m").exec(readme)?.[1]);
    const groups = new Map<string, number>();
    let total = 0;
    for (const file of files) {
      const cases = JSON.parse(readFileSync(new URL(file, folder), "utf8")) as Case[];
      expect(row(file), file).toBe(cases.length);
      total += cases.length;
      for (const c of cases) groups.set(c.group ?? "(no group)", (groups.get(c.group ?? "(no group)") ?? 0) + 1);
    }
    expect(Number(/^\| \*\*all\*\* \| \*\*(\d+)\*\* \|$/m.exec(readme)?.[1])).toBe(total);
    for (const [group, count] of groups) expect(row(group), group).toBe(count);
  });

  for (const file of files) {
    const cases = JSON.parse(readFileSync(new URL(file, folder), "utf8")) as Case[];
    describe(file, () => {
      for (const c of cases) {
        it(c.name, async () => {
          if ("refused" in c) {
            let error: unknown;
            try {
              sandbox.compile(c.source);
            } catch (e) {
              error = e;
            }
            expect(error, `${c.source} must be refused when saved`).toBeInstanceOf(TemplateSyntaxError);
            expect((error as Error).message).toMatch(new RegExp(c.refused));
            return;
          }
          if ("error" in c) {
            const template = sandbox.compile(c.source);
            let error: unknown;
            try {
              await sandbox.render(template, variables(["!cmd", "a", "b"]), recordingFunctions());
            } catch (e) {
              error = e;
            }
            expect(error, `${c.source} must fail when rendered`).toBeInstanceOf(TemplateRenderError);
            expect((error as Error).message).toMatch(new RegExp(c.error));
            return;
          }
          expect(await sandbox.render(sandbox.compile(c.source), variables(["!cmd", "a", "b"]), recordingFunctions()), c.source).toBe(c.expected);
        });
      }
    });
  }
});
