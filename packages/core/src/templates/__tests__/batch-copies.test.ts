import { afterAll, describe, expect, it } from "vitest";
import { TemplateSandbox } from "../template-sandbox.js";
import { recordingFunctions, variables } from "./template-test-kit.js";

describe("what a batch costs the isolate's memory limit", () => {
  const sandbox = new TemplateSandbox({ poolSize: 1 });
  afterAll(() => sandbox.close());

  it("adds nothing outside the V8 heap, however many large batches cross", async () => {
    // Every batch is several kilobytes (an 800-character argument per render): copied in as a
    // string argument, each would stay counted against the memory limit until a full GC. The
    // isolate's own scripts (the nunjucks runtime, the bootstrap) are counted once, from the start.
    const template = sandbox.compile("{{ args[1]|length }}");
    const word = "x".repeat(800);
    expect(await sandbox.render(template, variables(["!len", "abc"]), recordingFunctions())).toBe("3");
    const before = (await sandbox.stats()).isolates?.externalBytes;
    expect(before).toBeGreaterThan(0);
    for (let round = 0; round < 20; round++) {
      const outputs = await Promise.all(
        Array.from({ length: 16 }, () => sandbox.render(template, variables(["!len", word]), recordingFunctions())),
      );
      expect(outputs).toEqual(Array.from({ length: 16 }, () => "800"));
    }
    expect((await sandbox.stats()).isolates?.externalBytes).toBe(before);
  });
});
