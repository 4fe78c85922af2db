import type { ChatChannel } from "../chat/event.js";
import type {
  ChannelState,
  OutgoingMessage,
  PlatformLookups,
  PlatformPlugin,
  PluginCapabilities,
  PluginContext,
  PluginMetadata,
  PluginStatus,
  ServedChannel,
} from "../plugins/contract.js";
import { PLUGIN_ERROR_CODES, PluginError } from "../plugins/plugin-errors.js";
import type { PlatformDeclaration } from "../alerts/platform-declaration.js";

/** What a channel's plugin failing to start means for the streamer. */
export interface ChannelFailure {
  state: Extract<ChannelState, "needs_reconnect" | "missing_scope" | "failed">;
  detail: string;
  missing_scopes?: readonly string[];
}

/** Options of {@link ChannelPlugins}. */
export interface ChannelPluginsOptions<Unit extends PlatformPlugin> {
  metadata: PluginMetadata;
  capabilities: PluginCapabilities;
  platform?: PlatformDeclaration;
  /** Builds the plugin of one channel (a plugin serving that channel only) from its link. */
  create(channel: ServedChannel): Unit | Promise<Unit>;
  /** What an error of a channel's connect means (default: `failed` with its message). */
  classify?(error: unknown, channel: ServedChannel): ChannelFailure;
  /** Lookups of the platform (`user()`, `channel()`), when the plugin has app-level ones. */
  lookups?: PlatformLookups;
  /**
   * Called with how many channels are served whenever that changes (before a new channel connects):
   * share a budget among them (each unit reads its share when it spends; handing every unit its
   * share here would cost the number of channels at every change).
   */
  onServedChange?(count: number): void;
}

interface Served<Unit> {
  channel: ServedChannel;
  unit: Unit;
  controller: AbortController;
}

const CHANNEL_STATE_OF: Readonly<Record<PluginStatus, ChannelState>> = {
  idle: "starting",
  connecting: "starting",
  connected: "serving",
  degraded: "serving",
  disconnected: "starting",
  failed: "failed",
};

/**
 * A plugin that serves each linked channel (plugin API 1.1) with its own single-channel plugin:
 * the host's `serveChannel` builds and connects one, `releaseChannel` disconnects it. What each
 * channel's plugin emits goes through the host's context (validated and de-duplicated there); its
 * status becomes that channel's status; answers and moderation go to the plugin of the channel
 * they name. One channel failing never stops the others.
 */
export class ChannelPlugins<Unit extends PlatformPlugin> implements PlatformPlugin {
  readonly metadata: PluginMetadata;
  readonly capabilities: PluginCapabilities;
  readonly platform?: PlatformDeclaration;
  readonly lookups?: PlatformLookups;
  readonly #options: ChannelPluginsOptions<Unit>;
  readonly #served = new Map<number, Served<Unit>>();
  #context: PluginContext | null = null;

  constructor(options: ChannelPluginsOptions<Unit>) {
    this.#options = options;
    this.metadata = options.metadata;
    this.capabilities = options.capabilities;
    if (options.platform) this.platform = options.platform;
    if (options.lookups) this.lookups = options.lookups;
  }

  channels(): readonly ChatChannel[] {
    return [...this.#served.values()].flatMap((s) => s.unit.channels());
  }

  /** The plugin serving a connection's channel, or null. */
  unit(connectionId: number): Unit | null {
    return this.#served.get(connectionId)?.unit ?? null;
  }

  /** The plugin serving the channel whose platform id is `platformId`, or null. */
  unitFor(platformId: string): Unit | null {
    for (const served of this.#served.values()) {
      if (served.channel.platform_user_id === platformId || served.unit.channels().some((c) => c.platform_id === platformId)) return served.unit;
    }
    return null;
  }

  /** The channels served now, with their plugins. */
  served(): { channel: ServedChannel; unit: Unit }[] {
    return [...this.#served.values()].map(({ channel, unit }) => ({ channel, unit }));
  }

  async connect(context: PluginContext): Promise<void> {
    this.#context = context;
    // One listener for every channel (a listener per channel would make each add and removal walk
    // all the others: EventTarget keeps a list).
    context.signal.addEventListener("abort", () => {
      for (const served of this.#served.values()) served.controller.abort();
    }, { once: true });
    this.#summarize();
  }

  async disconnect(): Promise<void> {
    const all = [...this.#served.keys()];
    await Promise.all(all.map((id) => this.releaseChannel(id)));
    this.#context = null;
  }

  async serveChannel(channel: ServedChannel): Promise<void> {
    const context = this.#context;
    if (!context) throw new PluginError(PLUGIN_ERROR_CODES.failed, `The ${this.metadata.name} plugin is not connected`);
    // Served already: new tokens or a new name; start it again with them.
    await this.releaseChannel(channel.connection_id);
    // Aborted when the channel is released, or with every other one when the plugin's context is.
    const controller = new AbortController();
    let unit: Unit;
    try {
      unit = await this.#options.create(channel);
    } catch (error) {
      this.#fail(context, channel, error);
      throw error;
    }
    if (context.signal.aborted) controller.abort();
    const served: Served<Unit> = { channel, unit, controller };
    this.#served.set(channel.connection_id, served);
    this.#options.onServedChange?.(this.#served.size);
    try {
      await unit.connect(this.#channelContext(context, channel, controller.signal));
    } catch (error) {
      if (this.#served.get(channel.connection_id) === served) this.#served.delete(channel.connection_id);
      controller.abort();
      await unit.disconnect().catch(() => undefined);
      this.#fail(context, channel, error);
      this.#summarize();
      return;
    }
    this.#summarize();
  }

  async releaseChannel(connectionId: number): Promise<void> {
    const served = this.#served.get(connectionId);
    if (!served) return;
    this.#served.delete(connectionId);
    served.controller.abort();
    try {
      await served.unit.disconnect();
    } catch (err) {
      this.#context?.logger.warn({ err, connection: connectionId }, "a channel's plugin did not disconnect cleanly");
    }
    this.#summarize();
  }

  async send(message: OutgoingMessage): Promise<void> {
    await this.#unitOf(message.channel).send(message);
  }

  async deleteMessage(channel: ChatChannel, messageId: string): Promise<void> {
    const unit = this.#unitOf(channel);
    if (!unit.deleteMessage) throw new PluginError(PLUGIN_ERROR_CODES.unsupported, `${this.metadata.name} cannot delete messages`);
    await unit.deleteMessage(channel, messageId);
  }

  async timeout(channel: ChatChannel, userPlatformId: string, seconds: number, reason: string | null): Promise<void> {
    const unit = this.#unitOf(channel);
    if (!unit.timeout) throw new PluginError(PLUGIN_ERROR_CODES.unsupported, `${this.metadata.name} cannot time users out`);
    await unit.timeout(channel, userPlatformId, seconds, reason);
  }

  async ban(channel: ChatChannel, userPlatformId: string, reason: string | null): Promise<void> {
    const unit = this.#unitOf(channel);
    if (!unit.ban) throw new PluginError(PLUGIN_ERROR_CODES.unsupported, `${this.metadata.name} cannot ban users`);
    await unit.ban(channel, userPlatformId, reason);
  }

  #unitOf(channel: ChatChannel): Unit {
    for (const served of this.#served.values()) {
      const match = served.unit.channels().some((c) => c.id === channel.id && (channel.platform_id === "" || c.platform_id === "" || c.platform_id === channel.platform_id));
      if (match) return served.unit;
    }
    throw new PluginError(PLUGIN_ERROR_CODES.notFound, `The ${this.metadata.name} plugin does not serve channel ${channel.username || channel.id}`);
  }

  #fail(context: PluginContext, channel: ServedChannel, error: unknown): void {
    const failure = this.#options.classify?.(error, channel) ?? { state: "failed", detail: error instanceof Error ? error.message : String(error) };
    context.logger.warn({ connection: channel.connection_id, state: failure.state, detail: failure.detail }, "channel not served");
    context.setChannelStatus(channel.connection_id, failure.state, failure.detail, failure.missing_scopes ?? []);
  }

  /** The plugin's own status: how many channels it serves. */
  #summarize(): void {
    this.#options.onServedChange?.(this.#served.size);
    const context = this.#context;
    if (!context || context.signal.aborted) return;
    const n = this.#served.size;
    context.setStatus("connected", n === 0 ? "no channel linked yet" : `serving ${n} channel${n === 1 ? "" : "s"}`);
  }

  #channelContext(parent: PluginContext, channel: ServedChannel, signal: AbortSignal): PluginContext {
    const stopped = { accepted: false as const, reason: "stopped" as const, message: "the channel is no longer served" };
    return {
      logger: parent.logger.child({ channel: channel.username, connection: channel.connection_id }),
      signal,
      emitChat: (event) => (signal.aborted ? stopped : parent.emitChat(event)),
      emitNotification: (notification) => (signal.aborted ? stopped : parent.emitNotification(notification)),
      emitModeration: (event) => (signal.aborted ? stopped : parent.emitModeration(event)),
      setStatus: (status, detail = null) => {
        if (signal.aborted) return;
        if (status === "failed") this.#fail(parent, channel, new Error(detail ?? "failed"));
        else parent.setChannelStatus(channel.connection_id, CHANNEL_STATE_OF[status], detail);
      },
      setChannelStatus: (connectionId, state, detail, missing) => {
        if (signal.aborted || connectionId !== channel.connection_id) return;
        parent.setChannelStatus(connectionId, state, detail, missing);
      },
    };
  }
}
