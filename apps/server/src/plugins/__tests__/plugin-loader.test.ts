import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import { runPlugins } from "../../cli/plugins.js";
import { bootstrap } from "../../first-run.js";
import { tempDataDir, testConfig } from "../../__tests__/helpers.js";
import { loadPlugins } from "../plugin-loader.js";
import { CONFIG_FILE_NAME } from "../plugin-settings.js";
import { catalogWithPlatforms } from "@ovation/core/alerts";

const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
const data = tempDataDir();
afterAll(() => data.remove());

const load = (env: Record<string, string>) => loadPlugins({ env, dataDir: data.dir, cwd: fixtures });
/** The error a load fails with (the test fails if it loads). */
const failure = (env: Record<string, string>): Promise<Error> =>
  load(env).then(
    () => {
      throw new Error("expected the load to fail");
    },
    (error: unknown) => error as Error,
  );

describe("loading plugins named in OVATION_PLUGINS", () => {
  it("loads a path, reads OVATION_PLUGIN_<ID>_<KEY> settings (camelCased, coerced by the plugin's schema)", async () => {
    const [minimal] = await load({ OVATION_PLUGINS: "./minimal-plugin.mjs", OVATION_PLUGIN_MINIMAL_ROOM: "lobby", OVATION_PLUGIN_MINIMAL_BOT_NAME: "bot" });
    expect(minimal).toMatchObject({ entry: "./minimal-plugin.mjs", origin: "path", location: join(fixtures, "minimal-plugin.mjs"), settings: { room: "lobby", limit: 5, botName: "bot" } });
  });

  it("names every bad value with the variable or config-file key it came from", async () => {
    const dir = join(data.dir, "cfg");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "ovation.json");
    writeFileSync(file, JSON.stringify({ plugins: { minimal: { room: "ab" } } }));
    const error = await failure({ OVATION_PLUGINS: "./minimal-plugin.mjs", OVATION_CONFIG_FILE: file, OVATION_PLUGIN_MINIMAL_LIMIT: "11" });
    expect(error).toMatchObject({ code: "OVATION_ERR_CONFIG_INVALID" });
    expect(error.message).toContain(`${file}: plugins.minimal.room: Too small`);
    expect(error.message).toContain("OVATION_PLUGIN_MINIMAL_LIMIT: Too big");
    // Settings from the file alone are enough; the environment overrides them.
    writeFileSync(file, JSON.stringify({ plugins: { minimal: { room: "from-file", limit: 2 } } }));
    const [ok] = await load({ OVATION_PLUGINS: "./minimal-plugin.mjs", OVATION_CONFIG_FILE: file, OVATION_PLUGIN_MINIMAL_LIMIT: "3" });
    expect(ok?.settings).toEqual({ room: "from-file", limit: 3 });
  });

  it("reads <data dir>/ovation.config.json when OVATION_CONFIG_FILE is not set, and names a file that is not JSON", async () => {
    writeFileSync(join(data.dir, CONFIG_FILE_NAME), JSON.stringify({ plugins: { minimal: { room: "data-dir" } } }));
    expect((await load({ OVATION_PLUGINS: "./minimal-plugin.mjs" }))[0]?.settings).toMatchObject({ room: "data-dir" });
    writeFileSync(join(data.dir, CONFIG_FILE_NAME), "{ nope");
    await expect(load({ OVATION_PLUGINS: "console" })).rejects.toThrow(/cannot read .*ovation\.config\.json as JSON/);
    writeFileSync(join(data.dir, CONFIG_FILE_NAME), "{}");
  });

  it("refuses another major plugin API version, a module that is no plugin and a missing path, all in one message", async () => {
    const error = await failure({ OVATION_PLUGINS: "./future-plugin.mjs,./not-a-plugin.mjs,./missing.mjs,Bad Name" });
    expect(error.message).toContain("plugin future was built for plugin API 2.0, but this Ovation implements 1.1 (major 1)");
    expect(error.message).toContain("not-a-plugin.mjs");
    expect(error.message).toContain("its default export is not a plugin factory");
    expect(error.message).toContain(`./missing.mjs: no file ${join(fixtures, "missing.mjs")}`);
    expect(error.message).toContain("unknown plugin Bad Name");
  });

  it("refuses the same plugin loaded twice", async () => {
    await expect(load({ OVATION_PLUGINS: "./minimal-plugin.mjs,../fixtures/minimal-plugin.mjs", OVATION_PLUGIN_MINIMAL_ROOM: "lobby" })).rejects.toThrow(
      "loads the plugin minimal a second time",
    );
  });
});

describe("a minimal plugin platform in the server", () => {
  it("gets the platform-neutral types in the catalog endpoint and the first run's alert set; ovation plugins reports it", async () => {
    const dir = tempDataDir();
    try {
      const env = { OVATION_PLUGINS: "console,./minimal-plugin.mjs", OVATION_PLUGIN_MINIMAL_ROOM: "lobby" };
      const app = await buildApp({ config: testConfig(dir.dir), logger: pino({ level: "silent" }), platforms: { env, cwd: fixtures } });
      try {
        const catalog = await app.inject({ method: "GET", url: "/v1/alerts/catalog" });
        expect(catalog.statusCode).toBe(200);
        const body = catalog.json() as { platforms: { id: string; name: string; built_in: boolean }[]; types: { type: string; platforms: { platform: string; default: { title?: string } }[] }[] };
        expect(body.platforms.at(-1)).toEqual({ id: "minichat", name: "minichat", built_in: false });
        const withMini = body.types.filter((t) => t.platforms.some((p) => p.platform === "minichat")).map((t) => t.type);
        expect(withMini).toEqual(["follow", "subscribe", "re-subscribe", "gift-subscribe", "raid", "donation"]);

        const result = bootstrap(app.ovation.repos, { catalog: catalogWithPlatforms(app.platformPlugins.platforms()) });
        if (result.kind !== "seeded") throw new Error("a fresh data directory is seeded");
        const set = app.ovation.repos.alertSets.activeForUser(result.user.id);
        const defaults = (set?.config["defaults"] ?? []) as { platform: string; type: string; default: { title?: string } }[];
        expect(defaults.find((d) => d.platform === "minichat" && d.type === "follow")?.default.title).toBe("{{name}} is now following");
        expect(app.pluginReports.list().map((r) => [r.id, r.origin, r.platform])).toEqual([
          ["console", "built-in", "ovation"],
          ["minimal", "path", "minichat"],
        ]);
      } finally {
        await app.close();
      }

      // Without the plugin the set is kept as it is, and ovation plugins names the platform no plugin serves.
      const lines: string[] = [];
      const io = { out: (text: string) => lines.push(text), err: (text: string) => lines.push(text) };
      const status = await runPlugins([], testConfig(dir.dir), io, { OVATION_PLUGINS: "console" });
      expect(status).toBe(0);
      expect(lines.join("\n")).toContain("console (built-in, plugin API 1.1): not-running");
      expect(lines.join("\n")).toMatch(/alert set 1 of user 1 names platform no loaded plugin serves: minichat \(kept as is\)/);
    } finally {
      dir.remove();
    }
  });
});
