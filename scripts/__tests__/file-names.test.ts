/**
 * No two source files of one package share a name (barrels, `index.ts`, aside): a name says what a file
 * holds, so two files named alike in one package make a reader (and an import line) guess which one is meant.
 * Tests are not counted. The files of scripts/import-layers.ts's graph are the ones checked.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { workspaceGraphs } from "../import-layers.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** `package: name` -> the files (relative to src/) of that package with that name. */
function sharedNames(): Map<string, string[]> {
  const shared = new Map<string, string[]>();
  for (const graph of workspaceGraphs(root)) {
    const byName = new Map<string, string[]>();
    for (const file of graph.files) {
      const name = file.split("/").pop() ?? file;
      if (name === "index.ts" || name === "index.tsx") continue;
      byName.set(name, [...(byName.get(name) ?? []), file]);
    }
    for (const [name, files] of byName) if (files.length > 1) shared.set(`${graph.name}: ${name}`, files.sort());
  }
  return shared;
}

describe("file names", () => {
  it("are not shared by two files of one package", () => {
    expect(Object.fromEntries(sharedNames())).toEqual({});
  });
});
