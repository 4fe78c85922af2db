import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { PluginFactory } from "@ovation/core/contracts";
import { z } from "zod";

/** Default name of the config file in the data directory (read when `OVATION_CONFIG_FILE` is not set). */
export const CONFIG_FILE_NAME = "ovation.config.json";

/** The parts of the config file the plugin loader reads: `plugins.<id>` holds each plugin's settings. */
const configFileSchema = z.looseObject({
  plugins: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
});

/** Plugin settings read from the config file, by plugin id, and where they came from. */
export interface PluginConfigFile {
  path: string | null;
  plugins: Record<string, Record<string, unknown>>;
}

/**
 * Reads the config file: `OVATION_CONFIG_FILE`, else `<dataDir>/ovation.config.json` when present.
 * Problems (unreadable, not JSON, a bad `plugins` section) are returned, not thrown.
 */
export function readPluginConfigFile(env: Readonly<Record<string, string | undefined>>, dataDir: string): { file: PluginConfigFile; problems: string[] } {
  const named = env.OVATION_CONFIG_FILE?.trim();
  const path = named ? named : join(dataDir, CONFIG_FILE_NAME);
  const empty = { path: null, plugins: {} };
  if (!named && !existsSync(path)) return { file: empty, problems: [] };
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    return { file: empty, problems: [`OVATION_CONFIG_FILE: cannot read ${path} as JSON (${(error as Error).message})`] };
  }
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) {
    return { file: empty, problems: parsed.error.issues.map((i) => `${path}: ${[...i.path.map(String)].join(".") || "(root)"}: ${i.message}`) };
  }
  return { file: { path, plugins: parsed.data.plugins ?? {} }, problems: [] };
}

/** The environment prefix of a plugin's settings: its own, or `OVATION_PLUGIN_<ID>_`. */
export function envPrefixOf(factory: Pick<PluginFactory, "id" | "envPrefix">): string {
  return factory.envPrefix ?? `OVATION_PLUGIN_${factory.id.toUpperCase().replace(/-/g, "_")}_`;
}

/** `BOT_NAME` -> `botName`. */
function camelKey(envKey: string): string {
  return envKey.toLowerCase().replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** `botName` -> `BOT_NAME`. */
function envKey(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
}

/**
 * Reads and validates one plugin's settings: the config file's `plugins.<id>` section, overridden by
 * `<prefix><KEY>` variables (`OVATION_PLUGIN_FAKECHAT_BOT_NAME` -> `botName`; values are strings, the
 * plugin's schema coerces them). Returns the settings, or one problem per bad value naming where it
 * came from (the variable, or the file and key).
 */
export function readPluginSettings(
  factory: PluginFactory,
  env: Readonly<Record<string, string | undefined>>,
  file: PluginConfigFile,
): { ok: true; settings: unknown } | { ok: false; problems: string[] } {
  const prefix = envPrefixOf(factory);
  const fromEnv = new Set<string>();
  const raw: Record<string, unknown> = { ...(file.plugins[factory.id] ?? {}) };
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(prefix) || value === undefined || value === "") continue;
    const key = camelKey(name.slice(prefix.length));
    raw[key] = value;
    fromEnv.add(key);
  }
  const parsed = factory.settings.safeParse(raw);
  if (parsed.success) return { ok: true, settings: parsed.data };
  const problems = parsed.error.issues.map((issue) => {
    const key = issue.path.length > 0 ? String(issue.path[0]) : null;
    const rest = issue.path.slice(1).map(String).join(".");
    let where: string;
    if (key === null) where = `${factory.id} settings`;
    else if (fromEnv.has(key) || file.plugins[factory.id]?.[key] === undefined) where = `${prefix}${envKey(key)}`;
    else where = `${file.path ?? "config file"}: plugins.${factory.id}.${key}`;
    return `${where}${rest ? `.${rest}` : ""}: ${issue.message}`;
  });
  return { ok: false, problems };
}
