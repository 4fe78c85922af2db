import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The script that runs inside every sandbox isolate. Its source is the TypeScript under `./isolate/`
 * (linted and type-checked with the rest of the package); the package build bundles it with esbuild
 * into `dist/templates/isolate-script.js` (see build.mjs), which is read here at run time. Running
 * from source (tests), the same bundling runs in memory with the esbuild dev dependency.
 *
 * The script evaluates to the bootstrap function `(limits) => renderBatch` (protocol in
 * `./isolate/index.ts`).
 */

/** Name of the bundled script, beside the compiled form of this module. */
export const ISOLATE_SCRIPT_FILE = "isolate-script.js";

/** The part of esbuild's `buildSync` this module uses (esbuild is a build-time dependency only). */
export type EsbuildBuildSync = (options: {
  entryPoints: string[];
  bundle: true;
  format: "iife";
  globalName: string;
  platform: "neutral";
  target: string;
  write: false;
  metafile: true;
  logLevel: "silent";
}) => { outputFiles?: Array<{ text: string }>; metafile?: { inputs: Record<string, unknown> } };

/**
 * Bundles the isolate script from its entry (`src/templates/isolate/index.ts`). Refuses an input
 * outside the entry's folder: the isolate has no Node built-ins and must hold no host code.
 */
export function bundleIsolateScript(buildSync: EsbuildBuildSync, entry: string): string {
  const result = buildSync({
    entryPoints: [entry],
    bundle: true,
    format: "iife",
    globalName: "ovationIsolate",
    platform: "neutral",
    target: "es2022",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const folder = dirname(entry);
  for (const input of Object.keys(result.metafile?.inputs ?? {})) {
    const rel = relative(folder, join(process.cwd(), input));
    if (rel.startsWith("..") || rel.includes(`node_modules${sep}`)) {
      throw new Error(`the isolate script may only import files of ${folder}, not ${input}`);
    }
  }
  const code = result.outputFiles?.[0]?.text;
  if (!code) throw new Error("esbuild produced no isolate script");
  if (code.includes("require(")) throw new Error("the isolate script must not call require()");
  return `(function () {\n${code}\nreturn ovationIsolate.bootstrap;\n})()\n`;
}

const here = fileURLToPath(import.meta.url);
let cached: string | undefined;

/** The isolate script's source (read once): from dist when built, bundled in memory from source. */
export function isolateBootstrapSource(): string {
  if (cached !== undefined) return cached;
  const built = join(dirname(here), ISOLATE_SCRIPT_FILE);
  if (!here.endsWith(".ts")) {
    cached = readFileSync(built, "utf8");
  } else {
    const esbuild = createRequire(import.meta.url)("esbuild") as { buildSync: EsbuildBuildSync };
    cached = bundleIsolateScript(esbuild.buildSync, join(dirname(here), "isolate", "index.ts"));
  }
  return cached;
}
