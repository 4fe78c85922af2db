import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * The script that runs inside every sandbox isolate. Its source is the TypeScript under `./isolate/`
 * (linted and type-checked with the rest of the package); the package build bundles it with esbuild
 * into `dist/templates/isolate-script.js` (see build.mjs), which is read here at run time. Running
 * from source (tests), the same bundling runs with the esbuild dev dependency in a child process,
 * cached in the temp directory by the content of the sources.
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

/** Bundles the isolate script from source with the esbuild dev dependency (tests and build only). */
export function bundleIsolateSource(): string {
  const esbuild = createRequire(import.meta.url)("esbuild") as { buildSync: EsbuildBuildSync };
  return bundleIsolateScript(esbuild.buildSync, join(dirname(here), "isolate", "index.ts"));
}

let cached: string | undefined;

/** The isolate script's source (read once): from dist when built; from source, bundled (and cached in the temp directory). */
export function isolateBootstrapSource(): string {
  if (cached !== undefined) return cached;
  const built = join(dirname(here), ISOLATE_SCRIPT_FILE);
  if (!here.endsWith(".ts")) {
    cached = readFileSync(built, "utf8");
    return cached;
  }
  // From source: bundle once per content of isolate/ and keep the result in the temp directory, so
  // the sandbox processes that tests start (and restart after crashes) do not each run esbuild.
  // esbuild runs in a short-lived child: its sync API would leave a worker thread and a service
  // process in this process, competing with the isolates for CPU.
  const folder = join(dirname(here), "isolate");
  const hash = createHash("sha256").update(readFileSync(here));
  for (const name of readdirSync(folder).sort()) hash.update(name).update(readFileSync(join(folder, name)));
  const file = join(tmpdir(), `ovation-isolate-script-${hash.digest("hex").slice(0, 16)}.js`);
  try {
    cached = readFileSync(file, "utf8");
  } catch {
    const child = spawnSync(
      process.execPath,
      ["--import", "tsx", "-e", `import(${JSON.stringify(pathToFileURL(here).href)}).then((m) => process.stdout.write(m.bundleIsolateSource()))`],
      { encoding: "utf8", maxBuffer: 16 * 1024 * 1024, stdio: ["ignore", "pipe", "pipe"] },
    );
    if (child.status !== 0 || !child.stdout) throw new Error(`bundling the isolate script failed: ${child.stderr || child.error?.message || "no output"}`);
    cached = child.stdout;
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, cached);
    renameSync(partial, file);
  }
  return cached;
}
