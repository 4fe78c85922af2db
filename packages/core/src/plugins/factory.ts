import type { z } from "zod";
import type { Logger } from "pino";
import type { PlatformPlugin } from "./contract.js";

/**
 * The plugin API version this core implements (`major.minor`). A plugin declares the version it was
 * built for; the host refuses one of another major version and accepts an older minor of the same.
 */
export const PLUGIN_API_VERSION = "1.0";

/** What the host gives a plugin factory besides its validated settings. */
export interface PluginFactoryContext {
  /** A pino child logger bound to the plugin's id. */
  readonly logger: Logger;
  /** The server's data directory (a plugin may keep its own files under `<dataDir>/plugins/<id>`). */
  readonly dataDir: string;
  /** The id of the first user of the server (the quick-start user), or null before the first run. */
  firstUserId(): number | null;
}

/**
 * A plugin module's default export: builds the plugin from its validated settings. Made with
 * {@link definePlugin}, which attaches the id, the settings schema and the API version.
 */
export interface PluginFactory<Schema extends z.ZodType = z.ZodType> {
  (settings: z.output<Schema>, context: PluginFactoryContext): PlatformPlugin | Promise<PlatformPlugin>;
  /** Plugin id: `OVATION_PLUGINS` entry for built-ins, the settings key, and `OVATION_PLUGIN_<ID>_*`. */
  readonly id: string;
  /** zod schema of the settings (an object schema; env values arrive as strings, so coerce numbers). */
  readonly settings: Schema;
  /** The plugin API version the plugin was built for (`major.minor`, see {@link PLUGIN_API_VERSION}). */
  readonly apiVersion: string;
  /** Environment prefix of the settings; default `OVATION_PLUGIN_<ID>_` (id upper-cased, `-` as `_`). */
  readonly envPrefix?: string;
  /**
   * When the host calls the factory: `"register"` (default) while the app is built, or `"listen"`
   * once the server listens (after the first-run bootstrap, for settings that name the first user).
   */
  readonly createOn?: "register" | "listen";
}

/** What {@link definePlugin} takes besides the factory function. */
export interface PluginDefinition<Schema extends z.ZodType> {
  id: string;
  settings: Schema;
  /** Default {@link PLUGIN_API_VERSION} of the @ovation/core/contracts the plugin was compiled against. */
  apiVersion?: string;
  envPrefix?: string;
  createOn?: "register" | "listen";
}

/**
 * Makes a plugin module's default export: `export default definePlugin({ id, settings }, (settings, context) => plugin)`.
 * The API version defaults to the one of the contracts the plugin is compiled against.
 */
export function definePlugin<Schema extends z.ZodType>(
  definition: PluginDefinition<Schema>,
  create: (settings: z.output<Schema>, context: PluginFactoryContext) => PlatformPlugin | Promise<PlatformPlugin>,
): PluginFactory<Schema> {
  const factory = (settings: z.output<Schema>, context: PluginFactoryContext) => create(settings, context);
  return Object.assign(factory, {
    id: definition.id,
    settings: definition.settings,
    apiVersion: definition.apiVersion ?? PLUGIN_API_VERSION,
    ...(definition.envPrefix === undefined ? {} : { envPrefix: definition.envPrefix }),
    ...(definition.createOn === undefined ? {} : { createOn: definition.createOn }),
  });
}

/** Why a plugin's API version is not accepted by this core, or null when it is. */
export function apiVersionProblem(declared: unknown, current: string = PLUGIN_API_VERSION): string | null {
  if (typeof declared !== "string" || !/^\d+\.\d+$/.test(declared)) {
    return `declares no valid plugin API version (apiVersion must be "major.minor", got ${JSON.stringify(declared)})`;
  }
  const [major, minor] = declared.split(".").map(Number) as [number, number];
  const [hostMajor, hostMinor] = current.split(".").map(Number) as [number, number];
  if (major !== hostMajor) {
    return `was built for plugin API ${declared}, but this Ovation implements ${current} (major ${hostMajor}); use a version of the plugin made for API ${hostMajor}.x`;
  }
  if (minor > hostMinor) {
    return `needs plugin API ${declared}, newer than this Ovation's ${current}; update Ovation`;
  }
  return null;
}
