import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { TemplateSandbox } from "../template-sandbox.js";
import { recordingFunctions, variables } from "./template-test-kit.js";

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
  const sandbox = new TemplateSandbox();
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
