import { parseArgs } from "node:util";
import { PLATFORMS } from "@ovation/core/contracts";
import type { ServerConfig } from "../config.js";
import { loadPlugins } from "../plugins/plugin-loader.js";
import type { PluginReport } from "../plugins/plugin-reports.js";
import type { NodeStatus } from "../redis/node-status.js";
import { envPrefixOf } from "../plugins/plugin-settings.js";
import { unservedPlatforms } from "../plugins/unserved-platforms.js";
import type { UnservedPlatforms } from "../plugins/unserved-platforms.js";
import { createRepositories } from "../store/repositories.js";
import { Store, lockHolder } from "../store/store.js";
import { callRunningServer } from "./admin-client.js";
import { usageError } from "../cli-error.js";
import type { CliIo } from "./io.js";

/** What `ovation plugins` shows: every plugin and the alert sets naming platforms no plugin serves. */
export interface PluginsListing {
  running: boolean;
  plugins: PluginReport[];
  unserved: UnservedPlatforms[];
  /** Which node serves which channels (with several nodes, every live node's; offline: none). */
  nodes: NodeStatus[];
}

/** Without a running server: loads and checks the configured plugins (nothing connects) and reads the store. */
async function offlineListing(config: ServerConfig, env: Readonly<Record<string, string | undefined>>): Promise<PluginsListing> {
  const loaded = await loadPlugins({ env, dataDir: config.dataDir, cwd: process.cwd() });
  const plugins = loaded.map(
    (item): PluginReport => ({
      id: item.factory.id,
      entry: item.entry,
      origin: item.origin,
      location: item.location,
      apiVersion: item.factory.apiVersion,
      name: null,
      platform: null,
      version: null,
      status: "not-running",
      detail: "settings valid; the server is not running",
      envPrefix: envPrefixOf(item.factory),
      channels: [],
    }),
  );
  const store = await Store.open(config.dataDir);
  try {
    // Plugin platforms are known only once a plugin is created; offline, only built-ins count as served.
    return { running: false, plugins, unserved: unservedPlatforms(createRepositories(store), PLATFORMS), nodes: [] };
  } finally {
    await store.close();
  }
}

function format(listing: PluginsListing): string {
  const lines = listing.plugins.map((p) => {
    const where = p.origin === "built-in" ? "built-in" : `${p.origin} ${p.location ?? p.entry}`;
    const platform = p.platform ? ` platform ${p.platform}` : "";
    const version = p.version ? ` v${p.version}` : "";
    const head = `${p.id}${version} (${where}, plugin API ${p.apiVersion})${platform}: ${p.status}${p.detail ? ` - ${p.detail}` : ""}`;
    const channels = p.channels.map((c) => `\n  channel ${c.username} (user ${c.channel_id}, connection ${c.connection_id}): ${c.state}${c.detail ? ` - ${c.detail}` : ""}`);
    return head + channels.join("");
  });
  if (lines.length === 0) lines.push("no platform plugins loaded (OVATION_PLUGINS=none)");
  for (const u of listing.unserved) {
    lines.push(`alert set ${u.alert_set_id} of user ${u.user_id} names platform${u.platforms.length > 1 ? "s" : ""} no loaded plugin serves: ${u.platforms.join(", ")} (kept as is)`);
  }
  // Several nodes: one line per live node (the per-channel list is in --json).
  if (listing.nodes.length > 1) {
    for (const n of listing.nodes) {
      const states = new Map<string, number>();
      for (const c of n.channels) states.set(c.state, (states.get(c.state) ?? 0) + 1);
      const counts = [...states].map(([state, count]) => `${count} ${state}`).join(", ") || "no channel";
      lines.push(`node ${n.node}: ${counts}${n.waiting > 0 ? `, ${n.waiting} moving to it` : ""}; lag ${n.lag_ms} ms${n.last_error ? `; last error: ${n.last_error}` : ""}`);
    }
  }
  return lines.join("\n");
}

/**
 * `ovation plugins [--json]`: the plugins `OVATION_PLUGINS` loads and each one's status. Asks the
 * running server through its admin socket; without one, loads and checks the plugins and their
 * settings (a bad value is an error naming it) and reports them as not running.
 */
export async function runPlugins(args: string[], config: ServerConfig, io: CliIo, env: Readonly<Record<string, string | undefined>>): Promise<number> {
  let json = false;
  try {
    json = parseArgs({ args, options: { json: { type: "boolean" } }, strict: true, allowPositionals: false }).values.json ?? false;
  } catch (error) {
    throw usageError((error as Error).message);
  }
  const listing =
    lockHolder(config.dataDir) !== null
      ? ({ running: true, ...(await callRunningServer(config.dataDir, { op: "plugins.list" })) as Omit<PluginsListing, "running"> })
      : await offlineListing(config, env);
  io.out(json ? JSON.stringify(listing, null, 2) : format(listing));
  return 0;
}
