// Bundles the isolate script (src/templates/isolate/) into dist/templates/isolate-script.js, after tsc.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import { bundleIsolateScript, ISOLATE_SCRIPT_FILE } from "./dist/templates/isolate-bootstrap.js";

const entry = fileURLToPath(new URL("./src/templates/isolate/index.ts", import.meta.url));
const out = new URL(`./dist/templates/${ISOLATE_SCRIPT_FILE}`, import.meta.url);
writeFileSync(out, bundleIsolateScript(buildSync, entry));
