// Builds the browser side of the page into dist/assets: app.js (esbuild bundle of src/client with
// @ovation/core/alerts, the isomorphic alert engine, and @ovation/client/socket (socket.io-client); no aliases: the page imports
// the alerts and contracts entry points, which reach no server-only module), app.css (styles + @font-face rules) and fonts/*.woff2 copied
// from the @fontsource packages, so the page needs nothing from a CDN.
import { copyFile, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** Families bundled from npm and the weights shipped for each. */
const FONTS = [
  { pkg: "@fontsource/inter", weights: [100, 200, 300, 400, 500, 600, 700, 800, 900] },
  { pkg: "@fontsource/roboto", weights: [100, 200, 300, 400, 500, 600, 700, 800, 900] },
  { pkg: "@fontsource/montserrat", weights: [100, 200, 300, 400, 500, 600, 700, 800, 900] },
];

/** Packages of @ovation/core the page must never reach; a bundle that needs one fails the build. */
const SERVER_ONLY = ["isolated-vm", "undici", "pino", "nunjucks", "re2js", "semver", "ipaddr.js"];

async function buildFonts(outDir) {
  const fontDir = path.join(outDir, "fonts");
  await mkdir(fontDir, { recursive: true });
  const rules = [];
  for (const { pkg, weights } of FONTS) {
    const pkgDir = path.dirname(require.resolve(`${pkg}/package.json`));
    for (const weight of weights) {
      const css = await readFile(path.join(pkgDir, `${weight}.css`), "utf8");
      for (const match of css.matchAll(/@font-face\s*\{[^}]*\}/g)) {
        const files = [...match[0].matchAll(/url\(\.\/files\/([^)]+?\.woff2)\)/g)].map((m) => m[1]);
        if (files.length === 0) continue;
        for (const file of files) await copyFile(path.join(pkgDir, "files", file), path.join(fontDir, file));
        // Keep only the woff2 source: every browser that runs OBS or a current desktop reads it.
        rules.push(match[0].replace(/src:[^;]*;/, `src: url(./fonts/${files[0]}) format('woff2');`));
      }
    }
  }
  return rules.join("\n");
}

/**
 * Builds every asset into `target` (default dist/assets). The files are written to a fresh sibling
 * directory that then replaces `target`, so a server serving `target` never sees a half-built tree.
 */
export async function buildBrowserAssets(target = path.join(here, "dist", "assets")) {
  const outDir = `${target}.build-${process.pid}`;
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  try {
    const result = await buildInto(outDir);
    const old = `${target}.old-${process.pid}`;
    await rename(target, old).catch(() => undefined);
    await rename(outDir, target);
    await rm(old, { recursive: true, force: true });
    return { js: path.join(target, "app.js"), css: path.join(target, "app.css"), inputs: result.inputs };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

async function buildInto(outDir) {
  const result = await esbuild.build({
    entryPoints: [path.join(here, "src", "client", "main.ts")],
    outfile: path.join(outDir, "app.js"),
    bundle: true,
    format: "iife",
    platform: "browser",
    target: ["chrome95", "firefox100", "safari15"],
    minify: true,
    sourcemap: false,
    legalComments: "none",
    metafile: true,
    logLevel: "silent",
  });
  if (result.warnings.length > 0) {
    const messages = await esbuild.formatMessages(result.warnings, { kind: "warning" });
    throw new Error(`app.js bundle has warnings:\n${messages.join("\n")}`);
  }
  const reached = Object.keys(result.metafile.inputs).filter((input) => SERVER_ONLY.some((pkg) => input.includes(`node_modules/${pkg}/`)));
  if (reached.length > 0) {
    throw new Error(`app.js bundles server-only packages (${reached.join(", ")}): the page imports a part of @ovation/core it must not use`);
  }
  const bundled = await readFile(path.join(outDir, "app.js"), "utf8");
  for (const pkg of [...SERVER_ONLY, "node:"]) {
    if (bundled.includes(`require("${pkg}`)) {
      throw new Error(`app.js still needs the server-only package ${pkg}: the page imports a part of @ovation/core it must not use`);
    }
  }
  if (bundled.includes("createRequire") || bundled.includes("import.meta")) {
    throw new Error("app.js contains a server-only module of @ovation/core (it reads import.meta): the page imports a part it must not use");
  }
  const fontFaces = await buildFonts(outDir);
  const styles = await readFile(path.join(here, "src", "client", "styles.css"), "utf8");
  const css = await esbuild.transform(`${fontFaces}\n${styles}`, { loader: "css", minify: true, target: ["chrome95"] });
  await writeFile(path.join(outDir, "app.css"), css.code);
  return { inputs: Object.keys(result.metafile.inputs).length };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildBrowserAssets().then(
    (out) => process.stdout.write(`browser-source assets: ${path.relative(process.cwd(), out.js)}, ${path.relative(process.cwd(), out.css)} (${out.inputs} inputs)\n`),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
