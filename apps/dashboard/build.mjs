// Builds the dashboard's browser side into dist/assets: app.js (esbuild, ES modules with code
// splitting: Preact, the router, oauth4webapi, @ovation/client, the shell, sign-in and the overview),
// one chunk per page under chunks/ (fetched when the page first opens), chunks of code pages share,
// and app.css. Nothing is fetched from a CDN at run time: the UI uses the system font stack, and the
// preview loads the browser-source page's own stylesheet and fonts from this host.
// The build fails when the first load or any chunk grows past DASHBOARD_BUNDLE_BUDGET (gzip bytes,
// src/budget.ts; the check is src/bundle-report.ts) or when it reaches a server-only package.
//   node build.mjs [--out <assets dir>] [--report <file.json>]
import { mkdir, readFile, readdir, rename, rm, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as esbuild from "esbuild";

const here = path.dirname(fileURLToPath(import.meta.url));

/** Packages the dashboard must never bundle (Node-only parts of @ovation/core and the server). */
const SERVER_ONLY = ["isolated-vm", "undici", "pino", "nunjucks", "re2js", "semver", "ipaddr.js", "fastify", "socket.io/"];

/** The budget and its check, compiled by `tsc -p tsconfig.build.json` (the first half of `npm run build`). */
async function sizeCheck() {
  const dist = (file) => import(pathToFileURL(path.join(here, "dist", file)).href);
  const [{ DASHBOARD_BUNDLE_BUDGET }, { bundleReport, budgetProblems }] = await Promise.all([dist("budget.js"), dist("bundle-report.js")]);
  return { budget: DASHBOARD_BUNDLE_BUDGET, bundleReport, budgetProblems };
}

async function cssSources() {
  const dir = path.join(here, "src", "app", "styles");
  const files = (await readdir(dir)).filter((f) => f.endsWith(".css")).sort();
  return (await Promise.all(files.map((f) => readFile(path.join(dir, f), "utf8")))).join("\n");
}

/**
 * Builds into `target` (default dist/assets) through a fresh sibling directory, so a running server
 * never sees half a build; resolves to the size report (src/bundle-report.ts).
 */
export async function buildDashboardAssets(target = path.join(here, "dist", "assets")) {
  const outDir = `${target}.build-${process.pid}`;
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  try {
    const report = await buildInto(outDir);
    const old = `${target}.old-${process.pid}`;
    await rename(target, old).catch(() => undefined);
    await rename(outDir, target);
    await rm(old, { recursive: true, force: true });
    return report;
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

async function buildInto(outDir) {
  const result = await esbuild.build({
    entryPoints: { app: path.join(here, "src", "app", "shell", "main.tsx") },
    absWorkingDir: here,
    outdir: outDir,
    // ES modules with splitting: every page is loaded with import() (pages/registry.ts), so each is a
    // chunk of its own, fetched when first opened; code several chunks share is a chunk of its own.
    // app.js keeps its name (the HTML names it; served with no-cache); chunks carry a content hash
    // in their name (served as immutable).
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    format: "esm",
    platform: "browser",
    target: ["chrome110", "firefox115", "safari16"],
    jsx: "automatic",
    jsxImportSource: "preact",
    minify: true,
    sourcemap: false,
    legalComments: "none",
    metafile: true,
    logLevel: "silent",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  if (result.warnings.length > 0) {
    const messages = await esbuild.formatMessages(result.warnings, { kind: "warning" });
    throw new Error(`the dashboard build has warnings:\n${messages.join("\n")}`);
  }
  const reached = Object.keys(result.metafile.inputs).filter((input) => SERVER_ONLY.some((pkg) => input.includes(`node_modules/${pkg}`)));
  if (reached.length > 0) throw new Error(`the dashboard build bundles server-only packages: ${reached.join(", ")}`);
  const css = await esbuild.transform(await cssSources(), { loader: "css", minify: true, target: ["chrome123", "firefox120", "safari17.5"] });
  await writeFile(path.join(outDir, "app.css"), css.code);

  const { budget, bundleReport, budgetProblems } = await sizeCheck();
  const report = bundleReport({ meta: result.metafile, packageDir: here, outDir, css: readFileSync(path.join(outDir, "app.css")), read: (file) => readFileSync(file), budget });
  const problems = budgetProblems(report, budget);
  if (problems.length > 0) throw new Error(`the dashboard bundle is over its budget:\n- ${problems.join("\n- ")}`);
  return report;
}

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { out: { type: "string" }, report: { type: "string" } } });
  buildDashboardAssets(values.out === undefined ? undefined : path.resolve(values.out)).then(
    async (report) => {
      if (values.report !== undefined) await writeFile(path.resolve(values.report), `${JSON.stringify(report, null, 2)}\n`);
      const lazy = report.chunks.filter((c) => !c.firstLoad);
      const largest = lazy[0];
      process.stdout.write(
        `dashboard assets: first load ${report.firstLoad.files.join(" + ")} ${kib(report.firstLoad.bytes)} (${kib(report.firstLoad.gzip)} gzip, budget ${kib(report.firstLoad.budget)}); ` +
          `${lazy.length} lazy chunks (${kib(lazy.reduce((n, c) => n + c.gzip, 0))} gzip together, largest ${largest ? `${largest.file} ${kib(largest.gzip)}` : "none"}); ` +
          `app.css ${kib(report.css.bytes)} (${kib(report.css.gzip)} gzip)\n`,
      );
    },
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
