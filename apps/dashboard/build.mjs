// Builds the dashboard's browser side into dist/assets: app.js (esbuild bundle of src/app: Preact,
// the router, oauth4webapi, @ovation/client and the browser-source renderer for the live preview)
// and app.css. Nothing is fetched from a CDN at run time: the UI uses the system font stack, and the
// preview loads the browser-source page's own stylesheet and fonts from this host.
// The build fails when a bundle grows past DASHBOARD_BUNDLE_BUDGET (gzip bytes) or reaches a server-only package.
import { mkdir, readFile, readdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";

const here = path.dirname(fileURLToPath(import.meta.url));

/** Packages the dashboard must never bundle (Node-only parts of @ovation/core and the server). */
const SERVER_ONLY = ["isolated-vm", "undici", "pino", "nunjucks", "re2js", "semver", "ipaddr.js", "fastify", "socket.io/"];

async function budget() {
  const { DASHBOARD_BUNDLE_BUDGET } = await import(pathToFileURL(path.join(here, "dist", "budget.js")).href);
  return DASHBOARD_BUNDLE_BUDGET;
}

async function cssSources() {
  const dir = path.join(here, "src", "app", "styles");
  const files = (await readdir(dir)).filter((f) => f.endsWith(".css")).sort();
  return (await Promise.all(files.map((f) => readFile(path.join(dir, f), "utf8")))).join("\n");
}

/** Builds into `target` (default dist/assets) through a fresh sibling directory, so a running server never sees half a build. */
export async function buildDashboardAssets(target = path.join(here, "dist", "assets")) {
  const outDir = `${target}.build-${process.pid}`;
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  try {
    const sizes = await buildInto(outDir);
    const old = `${target}.old-${process.pid}`;
    await rename(target, old).catch(() => undefined);
    await rename(outDir, target);
    await rm(old, { recursive: true, force: true });
    return sizes;
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

async function buildInto(outDir) {
  const result = await esbuild.build({
    entryPoints: { app: path.join(here, "src", "app", "shell", "main.tsx") },
    outdir: outDir,
    // ES modules with splitting: pages loaded with import() (pages/lazy-page.tsx) become chunks of
    // their own, fetched when first opened, so they do not weigh on the first load's budget.
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
    throw new Error(`dashboard app.js has warnings:\n${messages.join("\n")}`);
  }
  const reached = Object.keys(result.metafile.inputs).filter((input) => SERVER_ONLY.some((pkg) => input.includes(`node_modules/${pkg}`)));
  if (reached.length > 0) throw new Error(`dashboard app.js bundles server-only packages: ${reached.join(", ")}`);
  const css = await esbuild.transform(await cssSources(), { loader: "css", minify: true, target: ["chrome123", "firefox120", "safari17.5"] });
  await writeFile(path.join(outDir, "app.css"), css.code);

  const limits = await budget();
  // The first load: app.js and the chunks it imports statically (a lazy page's chunk is not in it).
  const firstLoad = new Set();
  const visit = (file) => {
    if (firstLoad.has(file)) return;
    firstLoad.add(file);
    for (const imported of result.metafile.outputs[file]?.imports ?? []) if (imported.kind === "import-statement") visit(imported.path);
  };
  const entry = Object.keys(result.metafile.outputs).find((file) => path.basename(file) === "app.js");
  if (entry === undefined) throw new Error("dashboard build made no app.js");
  visit(entry);
  let js = 0;
  let jsGzip = 0;
  for (const file of firstLoad) {
    const bytes = await readFile(path.resolve(file));
    js += bytes.length;
    jsGzip += gzipSync(bytes).length;
  }
  const lazy = Object.keys(result.metafile.outputs).filter((file) => file.endsWith(".js") && !firstLoad.has(file));
  let lazyGzip = 0;
  for (const file of lazy) lazyGzip += gzipSync(await readFile(path.resolve(file))).length;
  const sizes = { js, jsGzip, lazyChunks: lazy.length, lazyGzip, css: css.code.length, cssGzip: gzipSync(css.code).length };
  if (sizes.jsGzip > limits.js) throw new Error(`dashboard app.js (with the chunks it loads at once) is ${sizes.jsGzip} bytes gzipped, over its budget of ${limits.js} (apps/dashboard/src/budget.ts)`);
  if (sizes.cssGzip > limits.css) throw new Error(`dashboard app.css is ${sizes.cssGzip} bytes gzipped, over its budget of ${limits.css} (apps/dashboard/src/budget.ts)`);
  return sizes;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildDashboardAssets().then(
    (s) =>
      process.stdout.write(
        `dashboard assets: app.js and its static chunks ${s.js} B (${s.jsGzip} B gzip), ${s.lazyChunks} lazy page chunks (${s.lazyGzip} B gzip), app.css ${s.css} B (${s.cssGzip} B gzip)\n`,
      ),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
