import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { TemplateSandbox } from "../template-sandbox.js";
import { CORPUS_TIMEOUT_MS, recordingFunctions, variables } from "./template-test-kit.js";

interface Example {
  name: string;
  source: string;
  args?: string[];
  badges?: string[];
  output?: string;
  pattern?: string;
  repeat?: number;
  mustSee?: string[];
}

const fixture = JSON.parse(
  readFileSync(new URL("../../../../../fixtures/templates/reference-examples.json", import.meta.url), "utf8"),
) as { examples: Example[] };

describe("the reference's chat-bot template examples render as documented", () => {
  // What the templates answer is under test here, not the clock: a time limit a loaded CI machine cannot hit.
  const sandbox = new TemplateSandbox({ timeoutMs: CORPUS_TIMEOUT_MS });
  afterAll(() => sandbox.close());

  it("has every documented example of the reference (fixtures/templates/reference-examples.json, docs/templates.md)", () => {
    expect(fixture.examples.length).toBeGreaterThanOrEqual(7);
  });

  for (const example of fixture.examples) {
    it(example.name, async () => {
      const compiled = sandbox.compile(example.source);
      const functions = recordingFunctions();
      const vars = variables(example.args ?? ["!cmd"], example.badges ?? []);
      const outputs = await Promise.all(
        Array.from({ length: example.repeat ?? 1 }, () => sandbox.render(compiled, vars, functions)),
      );
      for (const output of outputs) {
        if (example.output !== undefined) expect(output).toBe(example.output);
        if (example.pattern !== undefined) expect(output).toMatch(new RegExp(example.pattern));
      }
      for (const wanted of example.mustSee ?? []) expect(outputs).toContain(wanted);
    });
  }

  it("sends proxy_pass to the URL written in the template", async () => {
    const functions = recordingFunctions();
    const compiled = sandbox.compile("{{ proxy_pass('https://example.com/api/commands') }}");
    expect(compiled.functions).toEqual(["proxy_pass"]);
    await sandbox.render(compiled, variables(), functions);
    expect(functions.calls).toEqual([{ name: "proxy_pass", args: ["https://example.com/api/commands"], performed: true }]);
  });
});
