import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const root = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const budgets = JSON.parse(readFileSync(root("size-budget.json"), "utf8")) as Record<string, number>;
const ENTRIES: Record<string, string> = {
  "@ovation/client": "src/index.ts",
  "@ovation/client/http": "src/http/index.ts",
  "@ovation/client/socket": "src/socket/index.ts",
  "@ovation/client/errors": "src/errors.ts",
};

/** Minified (esbuild, browser, ESM) and gzipped size of a bundle of `source`. */
async function gzippedBundle(source: { entry: string } | { contents: string }): Promise<number> {
  const result = await build({
    ...("entry" in source ? { entryPoints: [root(source.entry)] } : { stdin: { contents: source.contents, resolveDir: root("src"), loader: "ts" } }),
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return gzipSync(code).length;
}

describe("size budget (README.md)", () => {
  it.each(Object.entries(ENTRIES))("%s stays within its budget", async (name, entry) => {
    const size = await gzippedBundle({ entry });
    const budget = budgets[name] ?? 0;
    expect(size, `${name}: ${size} bytes gzipped, budget ${budget}`).toBeLessThanOrEqual(budget);
    expect(readFileSync(root("README.md"), "utf8")).toContain(`| \`${name}\` | ${(budget / 1024).toFixed(1)} KiB |`);
  });

  it("is tree-shakable: one endpoint family costs a fraction of the whole HTTP client", async () => {
    const one = await gzippedBundle({ contents: 'import { HttpClient, alertsApi } from "./http/index.js"; export const alerts = alertsApi(new HttpClient({ baseUrl: "" }));' });
    const all = await gzippedBundle({ contents: 'import { createOvationClient } from "./http/index.js"; export const client = createOvationClient({ baseUrl: "" });' });
    expect(one).toBeLessThan(all * 0.6);
    // Nothing of zod or the server's schemas reaches a bundle: the types are erased.
    const result = await build({ entryPoints: [root("src/index.ts")], bundle: true, write: false, metafile: true, platform: "browser", format: "esm", logLevel: "silent" });
    expect(Object.keys(result.metafile.inputs).filter((input) => input.includes("zod") || input.includes("packages/core"))).toEqual([]);
  });
});
