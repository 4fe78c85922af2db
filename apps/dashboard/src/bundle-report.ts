import path from "node:path";
import { gzipSync } from "node:zlib";
import type { DashboardBundleBudget } from "./budget.js";

/** The part of esbuild's metafile this report reads (paths relative to the build's working directory). */
export interface BundleMetafile {
  outputs: Readonly<
    Record<
      string,
      {
        bytes: number;
        inputs: Readonly<Record<string, unknown>>;
        imports: readonly { path: string; kind: string; external?: boolean }[];
        entryPoint?: string;
      }
    >
  >;
}

/** One JavaScript file of the build. */
export interface ChunkReport {
  /** Path below the assets directory: `app.js`, `chunks/editor-AB12CD34.js`. */
  file: string;
  bytes: number;
  gzip: number;
  /** Part of the first load: `app.js` or a chunk it imports statically. */
  firstLoad: boolean;
  /** The module a lazy `import()` loads when this chunk is that import's own (`src/app/pages/tokens.tsx`); null for shared chunks and app.js. */
  entry: string | null;
  /** The lazily loaded modules whose first load fetches this chunk (empty for first-load chunks). */
  loadedBy: string[];
  /** npm packages (`zod`, `preact`...) and workspace folders (`packages/core`...) with code in this chunk. */
  packages: string[];
  /** The dashboard's own modules with code in this chunk (`src/app/pages/overview.tsx`). */
  modules: string[];
  /** The gzip bytes this chunk may weigh (first-load chunks are checked together: `firstLoad.budget`). */
  budget: number | null;
}

/** Sizes of a dashboard build against {@link DashboardBundleBudget}. */
export interface BundleReport {
  firstLoad: { files: string[]; bytes: number; gzip: number; budget: number };
  /** Every JavaScript file, the first load first, then by size. */
  chunks: ChunkReport[];
  css: { bytes: number; gzip: number; budget: number };
}

/**
 * Where a bundled input comes from: its npm package (`zod`), the workspace folder of another package
 * (`packages/core`), or null for the dashboard's own code (below `packageDir`).
 */
function packageOf(input: string, packageDir: string): string | null {
  const file = path.resolve(packageDir, input);
  const npm = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file.split(path.sep).join("/"));
  if (npm?.[1] !== undefined) return npm[1];
  const own = path.relative(packageDir, file);
  if (!own.startsWith("..")) return null;
  // Another workspace package: its folder below the repository root (two levels above apps/dashboard).
  return path.relative(path.resolve(packageDir, "..", ".."), file).split(path.sep).slice(0, 2).join("/");
}

/**
 * The report of one build: `meta` is esbuild's metafile of a build run with `absWorkingDir:
 * packageDir` into `outDir`, `css` the bytes of app.css; `read` gives a built file's bytes.
 */
export function bundleReport(options: { meta: BundleMetafile; packageDir: string; outDir: string; css: Uint8Array; read: (file: string) => Uint8Array; budget: DashboardBundleBudget }): BundleReport {
  const { meta, packageDir, outDir, budget } = options;
  const relative = (output: string) => path.relative(outDir, path.resolve(packageDir, output)).split(path.sep).join("/");
  const outputs = Object.entries(meta.outputs).filter(([file]) => file.endsWith(".js"));
  const entry = outputs.find(([file]) => relative(file) === "app.js")?.[0];
  if (entry === undefined) throw new Error("the dashboard build made no app.js");

  const closure = (start: string, into: Set<string>) => {
    if (into.has(start)) return;
    into.add(start);
    for (const imported of meta.outputs[start]?.imports ?? []) if (imported.kind === "import-statement" && !imported.external) closure(imported.path, into);
  };
  const first = new Set<string>();
  closure(entry, first);
  const loadedBy = new Map<string, string[]>();
  for (const [file, output] of outputs) {
    if (first.has(file) || output.entryPoint === undefined) continue;
    const fetched = new Set<string>();
    closure(file, fetched);
    for (const chunk of fetched) if (!first.has(chunk)) loadedBy.set(chunk, [...(loadedBy.get(chunk) ?? []), output.entryPoint]);
  }

  const engineOnly = (modules: readonly string[]) => modules.length > 0 && modules.every((m) => budget.engine.entries.includes(m));
  const chunks: ChunkReport[] = outputs.map(([file, output]) => {
    const bytes = options.read(path.resolve(packageDir, file));
    const by = [...new Set(loadedBy.get(file) ?? [])].sort();
    const isFirst = first.has(file);
    return {
      file: relative(file),
      bytes: bytes.length,
      gzip: gzipSync(bytes).length,
      firstLoad: isFirst,
      entry: isFirst ? null : (output.entryPoint ?? null),
      loadedBy: by,
      packages: [...new Set(Object.keys(output.inputs).map((input) => packageOf(input, packageDir)).filter((p): p is string => p !== null))].sort(),
      modules: Object.keys(output.inputs)
        .filter((input) => packageOf(input, packageDir) === null)
        .map((input) => input.split(path.sep).join("/"))
        .sort(),
      budget: isFirst ? null : engineOnly(by) ? budget.engine.chunk : budget.chunk,
    };
  });
  chunks.sort((a, b) => Number(b.firstLoad) - Number(a.firstLoad) || b.gzip - a.gzip);
  const firstChunks = chunks.filter((c) => c.firstLoad);
  return {
    firstLoad: { files: firstChunks.map((c) => c.file), bytes: firstChunks.reduce((n, c) => n + c.bytes, 0), gzip: firstChunks.reduce((n, c) => n + c.gzip, 0), budget: budget.firstLoad },
    chunks,
    css: { bytes: options.css.length, gzip: gzipSync(options.css).length, budget: budget.css },
  };
}

/** What in `report` breaks its budget, one sentence each (empty when it holds). */
export function budgetProblems(report: BundleReport, budget: DashboardBundleBudget): string[] {
  const problems: string[] = [];
  const where = "(apps/dashboard/src/budget.ts)";
  if (report.firstLoad.gzip > report.firstLoad.budget) problems.push(`the first load (${report.firstLoad.files.join(", ")}) is ${report.firstLoad.gzip} bytes gzipped, over its budget of ${report.firstLoad.budget} ${where}`);
  for (const chunk of report.chunks) {
    if (chunk.budget !== null && chunk.gzip > chunk.budget) problems.push(`${chunk.file} (loaded by ${chunk.loadedBy.join(", ")}) is ${chunk.gzip} bytes gzipped, over its budget of ${chunk.budget} ${where}`);
    const heavy = chunk.packages.filter((p) => budget.engine.packages.includes(p));
    const engineOnly = chunk.loadedBy.length > 0 && chunk.loadedBy.every((m) => budget.engine.entries.includes(m));
    if (heavy.length > 0 && !engineOnly) {
      const by = chunk.firstLoad ? "the first load" : chunk.loadedBy.filter((m) => !budget.engine.entries.includes(m)).join(", ");
      problems.push(`${chunk.file} holds ${heavy.join(", ")}, which only ${budget.engine.entries.join(" and ")} may load, yet ${by} loads it ${where}`);
    }
  }
  if (report.css.gzip > report.css.budget) problems.push(`app.css is ${report.css.gzip} bytes gzipped, over its budget of ${report.css.budget} ${where}`);
  return problems;
}
