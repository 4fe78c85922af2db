import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

const coreDir = fileURLToPath(new URL("../..", import.meta.url));
const script = fileURLToPath(new URL("../../scripts/import-graph.mjs", import.meta.url));

interface Graph {
  specifier: string;
  modules: number;
  packages: string[];
  builtins: string[];
}

/** Imports `specifier` from the built package in a fresh Node process and returns what it loaded. */
function graphOf(specifier: string): Graph {
  const out = execFileSync(process.execPath, [script, specifier], { cwd: coreDir, encoding: "utf8", timeout: 30_000 });
  return JSON.parse(out) as Graph;
}

const HEAVY = ["undici", "nunjucks", "pino", "isolated-vm"];

describe("@ovation/core entry points (built dist)", () => {
  test("package.json exports every area's barrel", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { exports: Record<string, unknown> };
    expect(Object.keys(pkg.exports)).toEqual(
      expect.arrayContaining([".", "./contracts", "./api", "./alerts", "./overlays", "./templates", "./commands", "./net", "./plugins", "./plugin-kit", "./plugin-kit/testing"]),
    );
  });

  test("the alerts entry loads no undici, nunjucks, pino, isolated-vm and no Node built-in", () => {
    const graph = graphOf("@ovation/core/alerts");
    for (const heavy of HEAVY) expect(graph.packages).not.toContain(heavy);
    expect(graph.packages).toEqual(["json-logic-engine", "zod"]);
    expect(graph.builtins).toEqual([]);
  });

  test("the contracts entry loads zod only", () => {
    const graph = graphOf("@ovation/core/contracts");
    expect(graph.packages).toEqual(["zod"]);
    expect(graph.builtins).toEqual([]);
  });

  test("the api entry (the HTTP API's schemas) is isomorphic: zod and the engine schemas' parsers, nothing heavy, no Node built-in", () => {
    const graph = graphOf("@ovation/core/api");
    for (const heavy of HEAVY) expect(graph.packages).not.toContain(heavy);
    expect(graph.packages).toEqual(["json-logic-engine", "linkify-it", "re2js", "tlds", "uc.micro", "zod"]);
    expect(graph.builtins).toEqual([]);
  });

  test("the plugin-kit entry loads zod only and its testing entry nothing, neither a Node built-in", () => {
    const kit = graphOf("@ovation/core/plugin-kit");
    expect(kit.packages).toEqual(["zod"]);
    expect(kit.builtins).toEqual([]);
    const testing = graphOf("@ovation/core/plugin-kit/testing");
    expect(testing.packages).toEqual([]);
    expect(testing.builtins).toEqual([]);
  });

  test("the whole package loads the heavy parts the alerts entry avoids (the check can fail)", () => {
    const whole = graphOf("@ovation/core");
    expect(whole.packages).toEqual(expect.arrayContaining(["undici", "nunjucks", "pino"]));
    // isolated-vm is loaded only inside the sandbox child process, never by an import.
    expect(whole.packages).not.toContain("isolated-vm");
    expect(whole.modules).toBeGreaterThan(graphOf("@ovation/core/alerts").modules);
  });
});
