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
 * json-logic-engine inside the alerts entry's file (issue 29). The package ships one 107 KB module
 * holding both of its engines; the entry uses `LogicEngine` only, and not before the first condition
 * is compiled. So src/alerts/logic-engine.ts, the one module that creates an engine, becomes in the
 * bundle `LogicEngine` and what it reaches (about two thirds of the package, tree-shaken by esbuild)
 * wrapped in a function that runs on the first `newLogicEngine()`: the import only scans that code
 * (V8 compiles a function when it first runs) and the entry loads one module less. The package is
 * pinned exactly (package.json), so the bundled code is the pinned version's; no other built module
 * of this package may import it at run time (checked below), so a program holds one copy.
 */
const LOGIC_ENGINE_PACKAGE = "json-logic-engine";
const LOGIC_ENGINE_MODULE = "logic-engine.ts";

/** Modules of src/alerts/ that stay files of their own: the contracts entry imports them, the alerts entry does not. */
const ALERTS_OWN_FILES = new Set(["platform-declaration.ts"]);

/**
 * The alerts entry as one file (issue 29): each module of an entry costs its import a resolve, a read,
 * a compile and a link, and the alerts entry is the part a browser or an alert-only program pays.
 * dist/alerts/index.js becomes one ES module holding every module of src/alerts/ (but
 * ALERTS_OWN_FILES) and the part of json-logic-engine it uses (LOGIC_ENGINE_PACKAGE); its imports of
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
    minifyWhitespace: true,
    minifySyntax: true,
    banner: { js: logicEngineNotice() },
    sourcemap: "linked",
    metafile: true,
    logLevel: "error",
    plugins: [
      {
        name: "alerts-modules",
        setup(esbuild) {
          // Packages stay imports; json-logic-engine comes in through the replaced logic-engine.ts only.
          esbuild.onResolve({ filter: /^[^./]/ }, (args) => ({ path: args.path, external: true }));
          esbuild.onLoad({ filter: /\/logic-engine\.ts$/ }, (args) =>
            args.path === join(srcDir, LOGIC_ENGINE_MODULE) ? { contents: lazyLogicEngineModule(), loader: "js" } : undefined,
          );
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
  const output = readFileSync(join(distDir, "index.js"), "utf8");
  if (output.includes(`"${LOGIC_ENGINE_PACKAGE}"`)) {
    throw new Error(`dist/alerts/index.js imports ${LOGIC_ENGINE_PACKAGE}: create engines with newLogicEngine() (src/alerts/${LOGIC_ENGINE_MODULE})`);
  }
  const bundleExports = new Set(Object.values(result.metafile.outputs).find((output) => output.entryPoint)?.exports ?? []);
  for (const file of bundled) {
    const stem = file.replace(/\.ts$/, "");
    if (file === LOGIC_ENGINE_MODULE) {
      // Private to the bundle (the barrel does not export it): no module of its own in dist.
      for (const suffix of [".js", ".js.map", ".d.ts"]) rmSync(join(distDir, `${stem}${suffix}`), { force: true });
      continue;
    }
    const names = moduleExports(join(srcDir, file));
    const missing = names.filter((name) => !bundleExports.has(name));
    if (missing.length > 0) {
      throw new Error(`src/alerts/${file} exports ${missing.join(", ")}, which the alerts entry does not: export them from src/alerts/index.ts or list the module in ALERTS_OWN_FILES`);
    }
    writeFileSync(
      join(distDir, `${stem}.js`),
      `// Part of the alerts entry, which is one file (build.mjs): this module's names, from it.\n` +
        (names.length > 0 ? `export { ${names.join(", ")} } from "./index.js";\n` : "export {};\n"),
    );
    rmSync(join(distDir, `${stem}.js.map`), { force: true });
  }
}

/**
 * The bundle's version of src/alerts/logic-engine.ts: json-logic-engine's `LogicEngine`, tree-shaken and
 * minified like the entry, inside a function that runs once, on the first `newLogicEngine()`.
 */
function lazyLogicEngineModule() {
  const [output] = buildSync({
    stdin: {
      contents: `export { LogicEngine } from "${LOGIC_ENGINE_PACKAGE}";`,
      resolveDir: fileURLToPath(new URL(".", import.meta.url)),
      loader: "js",
    },
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    // "neutral" reads no main fields of its own; the package's exports map gives its ES module.
    mainFields: ["module", "main"],
    target: "es2022",
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: "error",
  }).outputFiles;
  const code = output.text;
  const exported = /export\s*\{\s*(\w+)(?:\s+as\s+LogicEngine)?\s*\};?\s*$/.exec(code);
  const body = exported ? code.slice(0, exported.index) : "";
  if (!exported || /(^|[;\n}])\s*(import|export)\b|\bimport\s*\(|import\.meta/.test(body)) {
    throw new Error(
      `${LOGIC_ENGINE_PACKAGE} bundled alone should be code without imports ending in one export of LogicEngine; ` +
        `it changed shape, so ${LOGIC_ENGINE_MODULE} cannot be made lazy`,
    );
  }
  return [
    "let engineClass;",
    `function engineClassOf() { return engineClass ??= (() => {\n${body}\nreturn ${exported[1]};\n})(); }`,
    "export function newLogicEngine() { return new (engineClassOf())(); }",
    "",
  ].join("\n");
}

/** The license notice of the bundled json-logic-engine, for the head of the file (its MIT license asks for it). */
function logicEngineNotice() {
  const dir = packageDir(LOGIC_ENGINE_PACKAGE);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const declared = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")).dependencies[LOGIC_ENGINE_PACKAGE];
  if (declared !== pkg.version) {
    throw new Error(
      `${LOGIC_ENGINE_PACKAGE} is bundled into the alerts entry, so package.json must pin it exactly (it declares ${declared}, ${pkg.version} is installed)`,
    );
  }
  const copyright = readFileSync(join(dir, "LICENSE"), "utf8").split("\n").find((line) => line.startsWith("Copyright"));
  return `/*! Bundles ${LOGIC_ENGINE_PACKAGE} ${pkg.version} (${pkg.license} License, ${copyright}): ${pkg.repository?.url ?? pkg.homepage} */`;
}

/** The installed folder of package `name`: the nearest node_modules/<name> up from this package. */
function packageDir(name) {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(dir) === dir) throw new Error(`${name} is not installed`);
  }
}

/** Fails the build if a built module outside the alerts bundle imports json-logic-engine (the bundle carries it). */
function checkLogicEngineUnshared() {
  const distDir = fileURLToPath(new URL("./dist/", import.meta.url));
  const files = readdirSync(distDir, { recursive: true }).filter((file) => file.endsWith(".js"));
  for (const file of files) {
    const code = readFileSync(join(distDir, file), "utf8");
    if (code.includes(`from "${LOGIC_ENGINE_PACKAGE}"`) || code.includes(`import("${LOGIC_ENGINE_PACKAGE}")`)) {
      throw new Error(
        `dist/${file} imports ${LOGIC_ENGINE_PACKAGE}, which the alerts entry bundles: create engines with newLogicEngine() in src/alerts/`,
      );
    }
  }
}

/** The names a source module exports at run time (types are erased). */
function moduleExports(file) {
  const result = buildSync({ entryPoints: [file], bundle: false, write: false, metafile: true, format: "esm", outdir: "out", logLevel: "error" });
  return [...(Object.values(result.metafile.outputs).find((output) => output.entryPoint)?.exports ?? [])].sort();
}

await bundleAlertsEntry();
checkLogicEngineUnshared();
