// Runs after tsc: bundles the isolate script (src/templates/isolate/) into
// dist/templates/isolate-script.js, and makes the alerts entry one file (see bundleAlertsEntry).
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, buildSync } from "esbuild";
import { bundleIsolateScript, ISOLATE_SCRIPT_FILE } from "./dist/templates/isolate-bootstrap.js";

const entry = fileURLToPath(new URL("./src/templates/isolate/index.ts", import.meta.url));
const out = new URL(`./dist/templates/${ISOLATE_SCRIPT_FILE}`, import.meta.url);
writeFileSync(out, bundleIsolateScript(buildSync, entry));

/**
 * Packages the alerts entry carries inside its file instead of importing them (issue 29). json-logic-engine
 * ships one 107 KB module holding both of its engines; the entry uses `LogicEngine` only, so the bundle
 * keeps that engine and what it reaches (about two thirds) and the import saves a module's resolve,
 * read and compile. Only exactly pinned packages belong here (package.json: the bundled code is the
 * pinned version's), and nothing else in a program imports them (a second copy would be harmless but
 * wasted): a check below fails the build if another built module of this package imports one.
 */
const BUNDLED_PACKAGES = ["json-logic-engine"];

/** Modules of src/alerts/ that stay files of their own: the contracts entry imports them, the alerts entry does not. */
const ALERTS_OWN_FILES = new Set(["platform-declaration.ts"]);

/**
 * The alerts entry as one file (issue 29): each module of an entry costs its import a resolve, a read,
 * a compile and a link, and the alerts entry is the part a browser or an alert-only program pays.
 * dist/alerts/index.js becomes one ES module holding every module of src/alerts/ (but
 * ALERTS_OWN_FILES) and the part of json-logic-engine it uses (BUNDLED_PACKAGES); its imports of
 * zod and of modules outside src/alerts/ (errors, platforms, validation, overlays/effects) stay
 * imports, so those stay one instance each in a program. The file is minified in whitespace and
 * syntax only: names stay as written (error classes, stack frames), and the linked source map
 * points back to src/. Every other dist/alerts/<module>.js becomes a re-export of its names
 * from index.js: the modules of other areas that import one of them (api, contracts, plugins) get the
 * same instances as the alerts entry, never a second copy of a schema or an error class. The
 * declarations (.d.ts) stay tsc's, file for file.
 */
async function bundleAlertsEntry() {
  const srcDir = fileURLToPath(new URL("./src/alerts/", import.meta.url));
  const distDir = fileURLToPath(new URL("./dist/alerts/", import.meta.url));
  const modules = readdirSync(srcDir).filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"));
  const bundled = modules.filter((file) => file !== "index.ts" && !ALERTS_OWN_FILES.has(file));
  const inBundle = (path) => dirname(path) === srcDir.replace(/\/$/, "") && bundled.includes(basename(path));
  const result = await build({
    entryPoints: [join(srcDir, "index.ts")],
    outfile: join(distDir, "index.js"),
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    // "neutral" reads no main fields of its own; json-logic-engine's exports map gives its ES module.
    mainFields: ["module", "main"],
    minifyWhitespace: true,
    minifySyntax: true,
    banner: { js: bundledNotices() },
    sourcemap: "linked",
    metafile: true,
    logLevel: "error",
    plugins: [
      {
        name: "alerts-modules",
        setup(esbuild) {
          // Packages stay imports (zod) but for BUNDLED_PACKAGES, which esbuild resolves and bundles.
          esbuild.onResolve({ filter: /^[^./]/ }, (args) => (BUNDLED_PACKAGES.includes(args.path) ? undefined : { path: args.path, external: true }));
          // The sources import "./x.js" meaning "./x.ts": a module of the bundle is read from src, any
          // other relative import stays as written (dist/ mirrors src/, so the path holds from dist/alerts/).
          esbuild.onResolve({ filter: /^\.\.?\// }, (args) => {
            if (args.importer.includes("/node_modules/")) return undefined;
            const path = join(args.resolveDir, args.path).replace(/\.js$/, ".ts");
            if (inBundle(path)) return { path };
            if (args.resolveDir !== srcDir.replace(/\/$/, "")) throw new Error(`unexpected import ${args.path} in ${args.importer}`);
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  const bundleExports = new Set(Object.values(result.metafile.outputs).find((output) => output.entryPoint)?.exports ?? []);
  for (const file of bundled) {
    const names = moduleExports(join(srcDir, file));
    const missing = names.filter((name) => !bundleExports.has(name));
    if (missing.length > 0) {
      throw new Error(`src/alerts/${file} exports ${missing.join(", ")}, which the alerts entry does not: export them from src/alerts/index.ts or list the module in ALERTS_OWN_FILES`);
    }
    const stem = file.replace(/\.ts$/, "");
    writeFileSync(
      join(distDir, `${stem}.js`),
      `// Part of the alerts entry, which is one file (build.mjs): this module's names, from it.\n` +
        (names.length > 0 ? `export { ${names.join(", ")} } from "./index.js";\n` : "export {};\n"),
    );
    rmSync(join(distDir, `${stem}.js.map`), { force: true });
  }
}

/** The license notice of each package in BUNDLED_PACKAGES, for the head of the bundle (MIT asks for it). */
function bundledNotices() {
  return BUNDLED_PACKAGES.map((name) => {
    const dir = packageDir(name);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const declared = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")).dependencies[name];
    if (declared !== pkg.version) throw new Error(`${name} is bundled into the alerts entry, so package.json must pin it exactly (it declares ${declared}, ${pkg.version} is installed)`);
    const copyright = readFileSync(join(dir, "LICENSE"), "utf8").split("\n").find((line) => line.startsWith("Copyright"));
    return `/*! Bundles ${name} ${pkg.version} (${pkg.license} License, ${copyright}): ${pkg.repository?.url ?? pkg.homepage} */`;
  }).join("\n");
}

/** The installed folder of package `name`: the nearest node_modules/<name> up from this package. */
function packageDir(name) {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(dir) === dir) throw new Error(`${name} is not installed`);
  }
}

/** Fails the build if a built module outside the alerts bundle imports a package the bundle carries. */
function checkBundledPackagesUnshared() {
  const distDir = fileURLToPath(new URL("./dist/", import.meta.url));
  const files = readdirSync(distDir, { recursive: true }).filter((file) => file.endsWith(".js") && file !== join("alerts", "index.js"));
  for (const file of files) {
    const code = readFileSync(join(distDir, file), "utf8");
    for (const name of BUNDLED_PACKAGES) {
      if (code.includes(`from "${name}"`) || code.includes(`import("${name}")`)) {
        throw new Error(`dist/${file} imports ${name}, which the alerts entry bundles: import it through the alerts modules or drop it from BUNDLED_PACKAGES`);
      }
    }
  }
}

/** The names a source module exports at run time (types are erased). */
function moduleExports(file) {
  const result = buildSync({ entryPoints: [file], bundle: false, write: false, metafile: true, format: "esm", outdir: "out", logLevel: "error" });
  return [...(Object.values(result.metafile.outputs).find((output) => output.entryPoint)?.exports ?? [])].sort();
}

await bundleAlertsEntry();
checkBundledPackagesUnshared();
