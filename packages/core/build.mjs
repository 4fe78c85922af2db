// Runs after tsc: bundles the isolate script (src/templates/isolate/) into
// dist/templates/isolate-script.js, and makes the alerts entry one file (see bundleAlertsEntry).
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, buildSync } from "esbuild";
import { bundleIsolateScript, ISOLATE_SCRIPT_FILE } from "./dist/templates/isolate-bootstrap.js";

const entry = fileURLToPath(new URL("./src/templates/isolate/index.ts", import.meta.url));
const out = new URL(`./dist/templates/${ISOLATE_SCRIPT_FILE}`, import.meta.url);
writeFileSync(out, bundleIsolateScript(buildSync, entry));

/** Modules of src/alerts/ that stay files of their own: the contracts entry imports them, the alerts entry does not. */
const ALERTS_OWN_FILES = new Set(["platform-declaration.ts"]);

/**
 * The alerts entry as one file (issue 29): each module of an entry costs its import a resolve, a read,
 * a compile and a link, and the alerts entry is the part a browser or an alert-only program pays.
 * dist/alerts/index.js becomes one ES module holding every module of src/alerts/ (but
 * ALERTS_OWN_FILES); its imports of packages (zod, json-logic-engine) and of modules outside
 * src/alerts/ (errors, platforms, validation, overlays/effects) stay imports, so those stay one
 * instance each in a program. Every other dist/alerts/<module>.js becomes a re-export of its names
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
    packages: "external",
    sourcemap: "linked",
    metafile: true,
    logLevel: "error",
    plugins: [
      {
        name: "alerts-modules",
        setup(esbuild) {
          // The sources import "./x.js" meaning "./x.ts": a module of the bundle is read from src, any
          // other relative import stays as written (dist/ mirrors src/, so the path holds from dist/alerts/).
          esbuild.onResolve({ filter: /^\.\.?\// }, (args) => {
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

/** The names a source module exports at run time (types are erased). */
function moduleExports(file) {
  const result = buildSync({ entryPoints: [file], bundle: false, write: false, metafile: true, format: "esm", outdir: "out", logLevel: "error" });
  return [...(Object.values(result.metafile.outputs).find((output) => output.entryPoint)?.exports ?? [])].sort();
}

await bundleAlertsEntry();
