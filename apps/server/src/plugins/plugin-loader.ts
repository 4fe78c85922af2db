import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { apiVersionProblem } from "@ovation/core/contracts";
import type { PluginFactory } from "@ovation/core/contracts";
import { ConfigError } from "../config.js";
import type { OvationServices } from "../services.js";
import { BUILT_IN_PLUGINS, isBuiltInPlugin } from "./builtin-plugins.js";
import { readPluginConfigFile, readPluginSettings } from "./plugin-settings.js";

/** Where a plugin came from. */
export type PluginOrigin = "built-in" | "package" | "path" | "embedded";

/** A plugin factory found, checked and given its validated settings, not yet called. */
export interface LoadedPlugin {
  /** The `OVATION_PLUGINS` entry (or the factory id for one passed by a program). */
  entry: string;
  origin: PluginOrigin;
  /** The resolved module file, for packages and paths. */
  location: string | null;
  factory: PluginFactory;
  settings: unknown;
}

/** Options of {@link loadPlugins}. */
export interface LoadPluginsOptions {
  env: Readonly<Record<string, string | undefined>>;
  /** Package names are resolved from here first, then from `cwd`. */
  dataDir: string;
  cwd: string;
  /** Factories a program passes directly (`startServer({ plugins })`), loaded after the configured ones. */
  factories?: readonly PluginFactory[];
  /** The server's services, for built-in plugins that keep data in the store (absent: settings check only). */
  services?: OvationServices;
}

const PACKAGE_NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/** The entries of `OVATION_PLUGINS`: comma separated, default `console`, `none` for nothing. */
export function pluginEntries(env: Readonly<Record<string, string | undefined>>): string[] {
  const raw = (env.OVATION_PLUGINS ?? "console").trim();
  if (raw === "" || raw === "none") return [];
  const entries = raw.split(",").map((s) => s.trim()).filter((s) => s !== "");
  return [...new Set(entries.map((e) => (isBuiltInPlugin(e.toLowerCase()) ? e.toLowerCase() : e)))];
}

function isPathEntry(entry: string): boolean {
  return entry.startsWith("./") || entry.startsWith("../") || entry.startsWith("file:") || isAbsolute(entry);
}

/** Resolves a package name from each base directory in turn; null when none has it. */
function resolvePackage(name: string, bases: readonly string[]): string | null {
  for (const base of bases) {
    try {
      return createRequire(join(base, "noop.js")).resolve(name);
    } catch {
      // not installed there; try the next base
    }
  }
  return null;
}

/** Checks that a module's default export is a plugin factory this server accepts; the problem otherwise. */
export function factoryProblem(value: unknown): string | null {
  if (typeof value !== "function") return "its default export is not a plugin factory (export default definePlugin({ id, settings }, create) from @ovation/core/contracts)";
  const factory = value as Partial<PluginFactory>;
  if (typeof factory.id !== "string" || !/^[a-z0-9][a-z0-9-]{0,63}$/.test(factory.id)) {
    return "its factory has no valid id (1-64 characters of a-z, 0-9 and -); make it with definePlugin";
  }
  const settings = factory.settings as { safeParse?: unknown } | undefined;
  if (typeof settings?.safeParse !== "function") return `its factory ${factory.id} declares no zod settings schema; make it with definePlugin`;
  const api = apiVersionProblem(factory.apiVersion);
  return api === null ? null : `plugin ${factory.id} ${api}`;
}

async function importEntry(entry: string, options: LoadPluginsOptions): Promise<{ origin: PluginOrigin; location: string | null; factory: unknown } | string> {
  if (isBuiltInPlugin(entry)) return { origin: "built-in", location: null, factory: await BUILT_IN_PLUGINS[entry]!(options.services ?? null) };
  let location: string;
  let origin: PluginOrigin;
  if (isPathEntry(entry)) {
    origin = "path";
    location = entry.startsWith("file:") ? new URL(entry).pathname : resolve(options.cwd, entry);
    if (!existsSync(location)) return `${entry}: no file ${location}`;
  } else if (PACKAGE_NAME.test(entry)) {
    origin = "package";
    const found = resolvePackage(entry, [options.dataDir, options.cwd]);
    if (found === null) {
      return `${entry} is not a built-in plugin (${Object.keys(BUILT_IN_PLUGINS).join(", ")}) and no package of that name is installed in ${options.dataDir} or ${options.cwd} (npm install it there, or give a path such as ./my-plugin.js)`;
    }
    location = found;
  } else {
    return `unknown plugin ${entry} (built-in: ${Object.keys(BUILT_IN_PLUGINS).join(", ")}; or a package name, or a path starting with ./, ../ or /)`;
  }
  try {
    const module = (await import(pathToFileURL(location).href)) as { default?: unknown };
    return { origin, location, factory: module.default };
  } catch (error) {
    return `${entry} (${location}) failed to load: ${(error as Error).message}`;
  }
}

/**
 * Loads the plugins `OVATION_PLUGINS` names (built-in names, package names resolved from the data
 * directory or the working directory, or paths) plus `factories`: checks each default export is a
 * factory of a compatible plugin API version and validates its settings (environment under its
 * prefix, or the config file's `plugins` section). Throws one `ConfigError` naming every problem.
 */
export async function loadPlugins(options: LoadPluginsOptions): Promise<LoadedPlugin[]> {
  const problems: string[] = [];
  const { file, problems: fileProblems } = readPluginConfigFile(options.env, options.dataDir);
  problems.push(...fileProblems);
  const found: Omit<LoadedPlugin, "settings">[] = [];
  for (const entry of pluginEntries(options.env)) {
    const result = await importEntry(entry, options);
    if (typeof result === "string") {
      problems.push(`OVATION_PLUGINS: ${result}`);
      continue;
    }
    const problem = factoryProblem(result.factory);
    if (problem !== null) {
      problems.push(`OVATION_PLUGINS: ${entry}${result.location ? ` (${result.location})` : ""}: ${problem}`);
      continue;
    }
    found.push({ entry, origin: result.origin, location: result.location, factory: result.factory as PluginFactory });
  }
  for (const factory of options.factories ?? []) {
    const problem = factoryProblem(factory);
    if (problem !== null) problems.push(`plugins: ${problem}`);
    else found.push({ entry: factory.id, origin: "embedded", location: null, factory });
  }
  const loaded: LoadedPlugin[] = [];
  const ids = new Set<string>();
  for (const item of found) {
    if (ids.has(item.factory.id)) {
      problems.push(`OVATION_PLUGINS: ${item.entry} loads the plugin ${item.factory.id} a second time`);
      continue;
    }
    ids.add(item.factory.id);
    const settings = readPluginSettings(item.factory, options.env, file);
    if (settings.ok) loaded.push({ ...item, settings: settings.settings });
    else problems.push(...settings.problems);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return loaded;
}
