import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { TemplateSandbox } from "../template-sandbox.js";
import { CORPUS_TIMEOUT_MS, recordingFunctions, variables } from "./template-test-kit.js";

interface Example {
  name: string;
  source: string;
  args?: string[];
  badges?: string[];
  output: string;
}

const fixture = JSON.parse(
  readFileSync(new URL("../../../../../fixtures/templates/good-examples.json", import.meta.url), "utf8"),
) as { examples: Example[] };

describe("everyday chat-bot templates", () => {
  // What the templates answer is under test here, not the clock: a time limit a loaded CI machine cannot hit.
  const sandbox = new TemplateSandbox({ timeoutMs: CORPUS_TIMEOUT_MS });
  afterAll(() => sandbox.close());

  for (const example of fixture.examples) {
    it(example.name, async () => {
      const output = await sandbox.render(
        sandbox.compile(example.source),
        variables(example.args ?? ["!cmd"], example.badges ?? []),
        recordingFunctions(),
      );
      expect(output).toBe(example.output);
    });
  }
});
