import type { ServedChannel } from "@ovation/core/contracts";
import type { PluginHost } from "@ovation/core/plugins";
import type { Logger } from "pino";
import { ChannelAssignment } from "../redis/channel-assignment.js";
import type { AssignmentView } from "../redis/channel-assignment.js";
import { writeNodeStatus } from "../redis/node-status.js";
import type { NodeStatus } from "../redis/node-status.js";
import type { OvationServices } from "../services.js";
import { sha256Hex } from "../crypto/secrets.js";
import { botEnabled } from "../store/connections.js";
import type { ConnectionRecord } from "../store/records.js";

/** How often every plugin's channels are compared with the store (links made on another node, missed changes). */
const RECONCILE_MS = 15_000;

/** The assignment key of a plugin's channel: `<plugin name>:<connection id>`. */
export const channelKey = (plugin: string, connectionId: number): string => `${plugin}:${connectionId}`;

/** The plugin name and connection id of an assignment key. */
function parseKey(key: string): { plugin: string; connectionId: number } {
  const at = key.lastIndexOf(":");
  return { plugin: key.slice(0, at), connectionId: Number(key.slice(at + 1)) };
}

/** Options of {@link ChannelSync} with several nodes. */
export interface ChannelSyncCluster {
  /** Lifetime of a channel lease (`OVATION_CHANNEL_LEASE_SECONDS`). */
  leaseTtlMs: number;
  /**
   * Whether a plugin's channels are spread over the nodes (default). A plugin that also serves
   * channels named in its settings runs on one node only (the `plugins` lease): its linked channels
   * are all served there, as on a single node.
   */
  spread(plugin: string): boolean;
  /** Whether the plugin runs on this node now (for the status: a standing-by node serves none of its channels). */
  active(plugin: string): boolean;
}

/** A linked connection as the channel a plugin serves. */
export function servedChannelOf(services: OvationServices, connection: ConnectionRecord): ServedChannel {
  return {
    id: String(connection.user_id),
    connection_id: connection.id,
    platform_user_id: connection.platform_user_id,
    username: connection.username,
    avatar_url: connection.avatar_url ?? "",
    scopes: services.repos.connections.tokensOf(connection.id)?.scopes ?? [],
  };
}

/**
 * Keeps what each plugin of API 1.1 serves equal to the store: every linked connection of its
 * platform whose user switched the bot on. The connections' change feed serves a new or re-linked
 * channel (new tokens) and releases an unlinked, switched-off or deleted one at once, with no
 * restart; a periodic pass catches what another node changed.
 *
 * With several nodes (Redis and a node registry) each wanted channel is served by one node only:
 * a {@link ChannelAssignment} gives every channel to its rendezvous owner among the live nodes, and
 * this node serves exactly the channels whose lease it holds. The change feed still applies a
 * change at once to a channel this node holds (new tokens, unlinked) and asks the assignment to run
 * soon for a channel it does not.
 */
export class ChannelSync {
  readonly #pending = new Map<number, ConnectionRecord>();
  #timer: NodeJS.Timeout | null = null;
  #flush: NodeJS.Immediate | null = null;
  #unsubscribe: (() => void) | null = null;
  readonly #assignment: ChannelAssignment | null = null;
  readonly #cluster: ChannelSyncCluster | null;
  /** The tokens (a hash) each channel was last served with, by assignment key: a refused channel is served again when they change. */
  readonly #servedWith = new Map<string, string>();
  /** What this node last wrote of its status, to skip writing an unchanged one. */
  #written = { channels: "", at: 0 };

  constructor(
    private readonly host: PluginHost,
    private readonly services: OvationServices,
    private readonly logger: Logger,
    cluster: ChannelSyncCluster | null = null,
  ) {
    this.#cluster = cluster;
    const { redis } = services.shared;
    const nodes = services.nodes;
    if (cluster && redis && nodes) {
      this.#assignment = new ChannelAssignment(redis, {
        node: services.config.serverId,
        ttlMs: cluster.leaseTtlMs,
        liveNodes: () => nodes.liveIds(),
        wanted: () => this.#wantedKeys(),
        acquire: (key) => this.#serveKey(key),
        release: (key) => this.#releaseKey(key),
        stepped: async (view) => {
          // Rewritten when a channel (or the view) changed, else once per lease lifetime (it expires after two).
          const status = this.#status(view);
          const channels = `${status.waiting}|${status.last_error ?? ""}|${status.live_nodes.join(",")}|${JSON.stringify(status.channels)}`;
          if (channels === this.#written.channels && Date.now() - this.#written.at < cluster.leaseTtlMs) return;
          await writeNodeStatus(redis, status, cluster.leaseTtlMs * 2);
          this.#written = { channels, at: Date.now() };
        },
        logger,
      });
    }
  }

  /** With several nodes: what this node holds and sees of the others (null on one node). */
  assignment(): AssignmentView | null {
    return this.#assignment?.view() ?? null;
  }

  /** Serves every wanted channel (with several nodes: the ones assigned to this node) and follows the change feed. */
  start(): void {
    if (this.#unsubscribe) return;
    this.#unsubscribe = this.services.repos.connections.onChange((change) => {
      // A link stores the connection and then its tokens: one pass after both.
      this.#pending.set(change.connection.id, change.connection);
      this.#flush ??= setImmediate(() => {
        this.#flush = null;
        const changed = [...this.#pending.values()];
        this.#pending.clear();
        for (const connection of changed) void this.#apply(connection);
      });
    });
    if (this.#assignment) void this.#assignment.start();
    this.reconcile();
    this.#timer = setInterval(() => this.reconcile(), RECONCILE_MS);
    this.#timer.unref();
  }

  /** Stops following the store; with several nodes also releases every channel this node holds (others take them at once). */
  async stop(): Promise<void> {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    if (this.#timer) clearInterval(this.#timer);
    if (this.#flush) clearImmediate(this.#flush);
    this.#timer = null;
    this.#flush = null;
    await this.#assignment?.stop();
  }

  /** Whether the assignment spreads a plugin's channels over the nodes (never on one node). */
  #spread(name: string): boolean {
    return this.#assignment !== null && this.host.servesChannels(name) && (this.#cluster?.spread(name) ?? true);
  }

  /** This node's status now (on one node: every channel it serves, no lag measured). */
  localStatus(): NodeStatus {
    const node = this.services.config.serverId;
    return this.#status(this.#assignment?.view() ?? { node, live_nodes: [node], held: 0, waiting: 0, renewed_at: 0, lag_ms: 0, last_error: null });
  }

  /** This node's status: the assignment's view and the state of every channel it serves. */
  #status(view: AssignmentView): NodeStatus {
    const channels: NodeStatus["channels"] = [];
    for (const name of this.host.names()) {
      if (!this.host.servesChannels(name) || (this.#cluster && !this.#cluster.active(name))) continue;
      for (const c of this.host.channelStatus(name)) channels.push({ plugin: name, connection_id: c.connection_id, username: c.username, state: c.state, detail: c.detail, since: c.since });
    }
    const { node, live_nodes, waiting, lag_ms, last_error } = view;
    const held = this.#assignment ? view.held : channels.length;
    return { node, at: Date.now(), live_nodes, held, waiting, lag_ms, last_error, channels };
  }

  /** Every channel key the installation serves: wanted connections of the platforms of channel-serving plugins. */
  #wantedKeys(): string[] {
    const keys: string[] = [];
    for (const name of this.host.names()) {
      if (!this.#spread(name)) continue;
      const platform = this.host.get(name).metadata.platform;
      for (const c of this.services.repos.connections.listForPlatform(platform)) if (this.#wanted(c)) keys.push(channelKey(name, c.id));
    }
    return keys;
  }

  async #serveKey(key: string): Promise<void> {
    const { plugin, connectionId } = parseKey(key);
    const connection = this.services.repos.connections.get(connectionId);
    if (!this.host.names().includes(plugin) || !this.#wanted(connection)) return;
    await this.#serve(plugin, connection);
  }

  async #releaseKey(key: string): Promise<void> {
    this.#servedWith.delete(key);
    const { plugin, connectionId } = parseKey(key);
    if (this.host.names().includes(plugin)) await this.host.releaseChannel(plugin, connectionId);
  }

  /** The plugins that serve channels of a platform. */
  #pluginsOf(platform: string): string[] {
    return this.host.names().filter((name) => this.host.servesChannels(name) && this.host.get(name).metadata.platform === platform);
  }

  #wanted(connection: ConnectionRecord | null): connection is ConnectionRecord {
    return connection !== null && botEnabled(connection) && this.services.repos.users.get(connection.user_id) !== null;
  }

  async #apply(changed: ConnectionRecord): Promise<void> {
    const current = this.services.repos.connections.get(changed.id);
    for (const name of this.#pluginsOf(changed.platform)) {
      const key = channelKey(name, changed.id);
      const assigned = this.#spread(name) ? this.#assignment : null;
      if (assigned && !assigned.holds(key)) {
        // Another node's, or not taken yet: the assignment takes it (or leaves it) on its next step.
        assigned.poke();
        continue;
      }
      try {
        if (assigned && !this.#wanted(current)) {
          await assigned.drop(key);
          continue;
        }
        if (this.#wanted(current)) await this.#serve(name, current);
        else await this.host.releaseChannel(name, changed.id);
      } catch (err) {
        this.logger.warn({ err, plugin: name, connection: changed.id }, "a channel change was not applied");
      }
    }
  }

  /** The hash of a connection's stored tokens (changes with a link, a refresh or another node's write). */
  #tokensOf(connectionId: number): string {
    const t = this.services.repos.connections.tokensOf(connectionId);
    return t ? sha256Hex(`${t.access_token ?? ""} ${t.refresh_token ?? ""}`) : "";
  }

  async #serve(plugin: string, connection: ConnectionRecord): Promise<void> {
    this.#servedWith.set(channelKey(plugin, connection.id), this.#tokensOf(connection.id));
    await this.host.serveChannel(plugin, servedChannelOf(this.services, connection));
  }

  /**
   * Serves again a channel its plugin refused (no tokens, refused tokens) whose stored tokens
   * changed since: a link made on another node can reach this node's store as the connection
   * first and its tokens a moment later, and a re-link elsewhere fixes a revoked one.
   */
  #retryRefused(): void {
    for (const name of this.host.names()) {
      if (!this.host.servesChannels(name)) continue;
      for (const c of this.host.channelStatus(name)) {
        if (c.state !== "needs_reconnect" && c.state !== "failed" && c.state !== "missing_scope") continue;
        const key = channelKey(name, c.connection_id);
        const connection = this.services.repos.connections.get(c.connection_id);
        if (!this.#wanted(connection) || this.#servedWith.get(key) === this.#tokensOf(c.connection_id)) continue;
        void this.#serve(name, connection).catch((err: unknown) => this.logger.warn({ err, plugin: name }, "channel not served"));
      }
    }
  }

  /** Serves what the store wants and no plugin serves yet; releases what it no longer wants (with several nodes: runs the assignment soon). */
  reconcile(): void {
    this.#assignment?.poke();
    this.#retryRefused();
    for (const name of this.host.names()) {
      if (!this.host.servesChannels(name) || this.#spread(name)) continue;
      const platform = this.host.get(name).metadata.platform;
      const wanted = new Map(this.services.repos.connections.listForPlatform(platform).filter((c) => this.#wanted(c)).map((c) => [c.id, c]));
      const served = new Set(this.host.channelStatus(name).map((c) => c.connection_id));
      for (const [id, connection] of wanted) {
        if (!served.has(id)) void this.#serve(name, connection).catch((err: unknown) => this.logger.warn({ err, plugin: name }, "channel not served"));
      }
      for (const id of served) if (!wanted.has(id)) void this.host.releaseChannel(name, id);
    }
  }
}
