import type { ChannelStatusReport } from "@ovation/core/contracts";
import type { PluginHost } from "@ovation/core/plugins";
import type { LoadedPlugin, PluginOrigin } from "./plugin-loader.js";
import { envPrefixOf } from "./plugin-settings.js";

/** One line of `ovation plugins`: a loaded plugin and how it is doing. */
export interface PluginReport {
  /** Factory id (the settings key). */
  id: string;
  /** The `OVATION_PLUGINS` entry it came from. */
  entry: string;
  origin: PluginOrigin;
  location: string | null;
  apiVersion: string;
  /** Registered plugin name and platform, once created. */
  name: string | null;
  platform: string | null;
  version: string | null;
  /** The host's status (`connected`...), `failed` when creating it failed, `pending` before it is created. */
  status: string;
  detail: string | null;
  /** Prefix of the environment variables holding its settings (`OVATION_TWITCH_`), null when registered directly. */
  envPrefix: string | null;
  /** Plugin API 1.1: each linked channel it serves and how (empty for a plugin that serves what it configures). */
  channels: ChannelStatusReport[];
}

/** Keeps what the loader found and what became of each plugin, for `ovation plugins`. */
export class PluginReports {
  readonly #names = new Map<LoadedPlugin, string>();
  readonly #failures = new Map<LoadedPlugin, string>();

  constructor(
    private readonly host: PluginHost,
    private readonly loaded: readonly LoadedPlugin[],
  ) {}

  /** Records that `item` was created and registered under `name`. */
  created(item: LoadedPlugin, name: string): void {
    this.#names.set(item, name);
    this.#failures.delete(item);
  }

  /** Records why `item` could not be created or connected. */
  failed(item: LoadedPlugin, detail: string): void {
    this.#failures.set(item, detail);
  }

  wasCreated(item: LoadedPlugin): boolean {
    return this.#names.has(item);
  }

  nameOf(item: LoadedPlugin): string | undefined {
    return this.#names.get(item);
  }

  /** Every loaded plugin with its status, plus plugins registered directly (tests, embedding). */
  list(): PluginReport[] {
    const health = new Map(this.host.health().map((h) => [h.name, h]));
    const reports = this.loaded.map((item): PluginReport => {
      const name = this.#names.get(item) ?? null;
      const h = name === null ? undefined : health.get(name);
      if (name !== null) health.delete(name);
      const failure = this.#failures.get(item);
      return {
        id: item.factory.id,
        entry: item.entry,
        origin: item.origin,
        location: item.location,
        apiVersion: item.factory.apiVersion,
        name,
        platform: h?.platform ?? null,
        version: h?.version ?? null,
        status: failure !== undefined ? "failed" : (h?.status ?? "pending"),
        detail: failure ?? h?.detail ?? null,
        envPrefix: envPrefixOf(item.factory),
        channels: h?.channels ?? [],
      };
    });
    for (const h of health.values()) {
      reports.push({ id: h.name, entry: h.name, origin: "embedded", location: null, apiVersion: "", name: h.name, platform: h.platform, version: h.version, status: h.status, detail: h.detail, envPrefix: null, channels: h.channels });
    }
    return reports;
  }
}
