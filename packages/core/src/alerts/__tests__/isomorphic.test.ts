import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const alertsDir = fileURLToPath(new URL("../", import.meta.url));

// apps/browser-source bundles the alert engine for the page: nothing in alerts/ may need Node.
describe("the alert engine is isomorphic", () => {
  it("bundles for the browser with no Node built-ins", async () => {
    const modules = readdirSync(alertsDir).filter((f) => f.endsWith(".ts"));
    expect(modules.length).toBeGreaterThan(5);
    const result = await build({
      stdin: {
        contents: modules.map((m, i) => `export * as m${i} from "./${m.replace(/\.ts$/, ".js")}";`).join("\n"),
        resolveDir: alertsDir,
        loader: "ts",
      },
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "error",
      resolveExtensions: [".ts", ".js"],
      plugins: [
        {
          name: "ts-js-suffix",
          setup(b) {
            // Our sources import "./x.js" meaning "./x.ts"; packages in node_modules keep their .js.
            b.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (args) =>
              args.resolveDir.includes("node_modules")
                ? undefined
                : { path: fileURLToPath(new URL(args.path.replace(/\.js$/, ".ts"), `file://${args.resolveDir}/`)) },
            );
          },
        },
      ],
    });
    expect(result.errors).toEqual([]);
    const code = result.outputFiles[0]?.text ?? "";
    expect(code).not.toMatch(/from "node:|require\("node:/);
    expect(code).toContain("resolveAlert");
  }, 60_000);
});
