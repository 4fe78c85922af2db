import type { ServedChannel } from "@ovation/core/contracts";
import type { PluginHost } from "@ovation/core/plugins";
import type { Logger } from "pino";
import type { OvationServices } from "../services.js";
import { botEnabled } from "../store/connections.js";
import type { ConnectionRecord } from "../store/records.js";

/** How often every plugin's channels are compared with the store (links made on another node, missed changes). */
const RECONCILE_MS = 15_000;

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
 */
export class ChannelSync {
  readonly #pending = new Map<number, ConnectionRecord>();
  #timer: NodeJS.Timeout | null = null;
  #flush: NodeJS.Immediate | null = null;
  #unsubscribe: (() => void) | null = null;

  constructor(
    private readonly host: PluginHost,
    private readonly services: OvationServices,
    private readonly logger: Logger,
  ) {}

  /** Serves every wanted channel and follows the change feed. */
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
    this.reconcile();
    this.#timer = setInterval(() => this.reconcile(), RECONCILE_MS);
    this.#timer.unref();
  }

  stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    if (this.#timer) clearInterval(this.#timer);
    if (this.#flush) clearImmediate(this.#flush);
    this.#timer = null;
    this.#flush = null;
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
      try {
        if (this.#wanted(current)) await this.host.serveChannel(name, servedChannelOf(this.services, current));
        else await this.host.releaseChannel(name, changed.id);
      } catch (err) {
        this.logger.warn({ err, plugin: name, connection: changed.id }, "a channel change was not applied");
      }
    }
  }

  /** Serves what the store wants and no plugin serves yet; releases what it no longer wants. */
  reconcile(): void {
    for (const name of this.host.names()) {
      if (!this.host.servesChannels(name)) continue;
      const platform = this.host.get(name).metadata.platform;
      const wanted = new Map(this.services.repos.connections.listForPlatform(platform).filter((c) => this.#wanted(c)).map((c) => [c.id, c]));
      const served = new Set(this.host.channelStatus(name).map((c) => c.connection_id));
      for (const [id, connection] of wanted) {
        if (!served.has(id)) void this.host.serveChannel(name, servedChannelOf(this.services, connection)).catch((err: unknown) => this.logger.warn({ err, plugin: name }, "channel not served"));
      }
      for (const id of served) if (!wanted.has(id)) void this.host.releaseChannel(name, id);
    }
  }
}
