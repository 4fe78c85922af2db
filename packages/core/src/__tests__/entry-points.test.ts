import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import * as alertsSource from "../alerts/index.js";

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

/** Runs an ES module `program` in a fresh Node process in the package folder and returns its JSON output. */
function runModule<T>(program: string): T {
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", program], { cwd: coreDir, encoding: "utf8", timeout: 30_000 })) as T;
}

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
    // json-logic-engine is bundled into the entry's file (build.mjs), so zod is the one package it imports.
    expect(graph.packages).toEqual(["zod"]);
    expect(graph.builtins).toEqual([]);
  });

  test("the built alerts entry is one module of ours beside zod, with the barrel's exports", () => {
    const graph = graphOf("@ovation/core/alerts");
    const zod = graphOf("zod");
    // zod's modules, the entry itself (with json-logic-engine inside) and the four modules other entries
    // share with it (errors, validation, platforms, overlays/effects), which must stay one instance each.
    expect(graph.modules).toBe(zod.modules + 1 + 4);
    const names = runModule<string[]>(`const m = await import("@ovation/core/alerts"); console.log(JSON.stringify(Object.keys(m).sort()));`);
    expect(names).toEqual(Object.keys(alertsSource).sort());
  });

  test("the built entry's conditions, with json-logic-engine inside the file and run on the first compile, answer as the sources do", () => {
    // Comparisons and + with jsonlogic.com's semantics, an array operator, var defaults, in, a mask.
    const conditions: unknown[] = [
      { and: [{ ">=": [{ var: "amount" }, 10] }, { in: ["a", { var: "name" }] }] },
      { "!": [{ ">=": ["abc", 5] }] },
      { "===": [{ "+": [null, 1] }, 1] },
      { "<": [1, { var: "amount" }, 100] },
      { some: [{ var: "items" }, { ">": [{ var: "" }, 2] }] },
      { "==": [{ var: ["missing", "fallback"] }, "fallback"] },
      { or: [{ "===": [{ var: "platform" }, "kick"] }, { "!!": [{ var: "items" }] }] },
    ];
    const contexts = [
      { amount: 12, name: "bab", items: [1, 3], platform: "twitch" },
      { amount: 9, name: "a", items: [], platform: "kick" },
      { amount: 100, name: null, items: [2], platform: "youtube" },
    ];
    const answers = (compile: typeof alertsSource.compileCondition, mask: typeof alertsSource.compileConditionMask) => ({
      single: conditions.map((condition) => contexts.map((context) => compile(condition)(context))),
      masks: contexts.map((context) => mask(conditions)(context)),
    });
    const built = runModule<ReturnType<typeof answers>>(`
      const { compileCondition, compileConditionMask } = await import("@ovation/core/alerts");
      const conditions = ${JSON.stringify(conditions)}, contexts = ${JSON.stringify(contexts)};
      console.log(JSON.stringify({
        single: conditions.map((condition) => contexts.map((context) => compileCondition(condition)(context))),
        masks: contexts.map((context) => compileConditionMask(conditions)(context)),
      }));
    `);
    const fromSource = answers(alertsSource.compileCondition, alertsSource.compileConditionMask);
    expect(built).toEqual(fromSource);
    // The answers are not all alike, so the comparison can fail.
    expect(new Set(fromSource.single.flat())).toEqual(new Set([true, false]));
  });

  test("importing the built alerts entry builds only the schemas its exports are made of, of 11 kinds", () => {
    // Counted through zod's post-construction hook (globalThis.__zod_globalConfig.postProcessor, which
    // zod calls once for every schema and check it builds). Most of what the entry costs beyond zod is
    // zod's own first build of each kind (packages/core README, "Import cost"), so a new kind at import
    // costs about a millisecond, and a field built eagerly instead of by a getter adds schemas.
    const built = runModule<{ hooked: boolean; kinds: Record<string, number>; checks: number }>(`
      await import("zod");
      const config = globalThis.__zod_globalConfig;
      const kinds = {};
      let checks = 0;
      if (config) config.postProcessor = (made) => {
        const def = made._zod.def;
        if (def.type === undefined) checks++;
        else kinds[def.type] = (kinds[def.type] ?? 0) + 1;
      };
      await import("@ovation/core/alerts");
      console.log(JSON.stringify({ hooked: config !== undefined, kinds, checks }));
    `);
    expect(built.hooked, "zod no longer has globalThis.__zod_globalConfig: count the schemas another way").toBe(true);
    expect(Object.keys(built.kinds).sort()).toEqual(["enum", "never", "nullable", "object", "optional", "pipe", "record", "string", "transform", "union", "unknown"]);
    const schemas = Object.values(built.kinds).reduce((sum, n) => sum + n, 0);
    expect(schemas).toBeGreaterThan(0);
    expect(schemas).toBeLessThanOrEqual(54);
    expect(built.checks).toBeLessThanOrEqual(18);
  });

  test("the entries that use the alert engine share its instances (one schema, one error class)", () => {
    const same = runModule<Record<string, boolean>>(`
      const alerts = await import("@ovation/core/alerts");
      const api = await import("@ovation/core/api");
      const contracts = await import("@ovation/core/contracts");
      const root = await import("@ovation/core");
      const error = new alerts.AlertMigrationError(alerts.ALERT_ERROR_CODES.alreadyAe4, "x");
      console.log(JSON.stringify({
        apiSet: api.alertSetEngineSchema === alerts.alertSetSchema,
        apiAe3: api.ae3DocumentSchema === alerts.ae3DocumentSchema,
        rootSet: root.alertSetSchema === alerts.alertSetSchema,
        rootError: root.AlertMigrationError === alerts.AlertMigrationError,
        ovationError: error instanceof contracts.OvationError,
      }));
    `);
    expect(same).toEqual({ apiSet: true, apiAe3: true, rootSet: true, rootError: true, ovationError: true });
  });

  test("the contracts entry loads zod only", () => {
    const graph = graphOf("@ovation/core/contracts");
    expect(graph.packages).toEqual(["zod"]);
    expect(graph.builtins).toEqual([]);
  });

  test("the api entry (the HTTP API's schemas) is isomorphic: zod and the engine schemas' parsers, nothing heavy, no Node built-in", () => {
    const graph = graphOf("@ovation/core/api");
    for (const heavy of HEAVY) expect(graph.packages).not.toContain(heavy);
    expect(graph.packages).toEqual(["linkify-it", "re2js", "tlds", "uc.micro", "zod"]);
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
