/**
 * No two source files of one package share a name (barrels, `index.ts`, aside): a name says what a file
 * holds, so two files named alike in one package make a reader (and an import line) guess which one is meant.
 * Tests are not counted. The files of scripts/import-layers.ts's graph are the ones checked.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { workspaceGraphs } from "../import-layers.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Names still shared, each with the files that share it, until they are renamed. A rename is mechanical but
 * touches every importer, so these wait for a quiet moment; an entry that is no longer shared fails the
 * second test below: delete it then. Add nothing here: name a new file for what it holds.
 */
const NOT_YET_RENAMED: Readonly<Record<string, readonly string[]>> = {
  "@ovation/plugin-kick: map.ts": ["chat/map.ts", "pusher/map.ts"],
  "@ovation/plugin-kick: wire.ts": ["api/wire.ts", "pusher/wire.ts"],
  "@ovation/server: browser-sources.ts": ["http/routes/browser-sources.ts", "store/browser-sources.ts"],
  "@ovation/server: commands.ts": ["http/routes/commands.ts", "store/commands.ts"],
  "@ovation/server: counters.ts": ["http/routes/counters.ts", "store/counters.ts"],
  "@ovation/server: managers.ts": ["http/routes/managers.ts", "store/managers.ts"],
  "@ovation/server: plugins.ts": ["cli/plugins.ts", "http/routes/plugins.ts"],
  "@ovation/server: simulate.ts": ["cli/simulate.ts", "http/routes/simulate.ts", "simulator/simulate.ts"],
  "@ovation/server: users.ts": ["http/routes/users.ts", "store/users.ts"],
};

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
  const shared = sharedNames();

  it("are not shared by two files of one package", () => {
    const unexpected = [...shared].filter(([key, files]) => JSON.stringify(NOT_YET_RENAMED[key]) !== JSON.stringify(files));
    expect(Object.fromEntries(unexpected)).toEqual({});
  });

  it("still share every name listed as not yet renamed (delete the ones renamed)", () => {
    expect(Object.keys(NOT_YET_RENAMED).filter((key) => !shared.has(key))).toEqual([]);
  });
});
