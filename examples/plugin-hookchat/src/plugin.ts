import { createHmac, timingSafeEqual } from "node:crypto";
import type { ChatChannel, OutgoingMessage, PlatformPlugin, PluginContext, PluginFactoryContext, ServedChannel } from "@ovation/core/contracts";
import { ChannelPlugins, platformNotification } from "@ovation/core/plugin-kit";
import type { HookChatSettings } from "./settings.js";
import { SIGNATURE_HEADER } from "./wire.js";
import type { HookChatEvent } from "./wire.js";

const METADATA = { name: "hookchat", platform: "hookchat", version: "1.0.0", core: "^0.1.0", description: "HookChat chat and follows of every linked channel" };

/** A link HookChat refused: the streamer must connect again. */
class Unauthorized extends Error {}

/**
 * One linked channel: subscribes its webhooks with the channel's token and answers with it. A 401
 * refreshes the token once through the host (which stores the new one); a refused refresh means
 * the streamer must reconnect.
 */
export class HookChatChannel implements PlatformPlugin {
  readonly metadata = METADATA;
  readonly capabilities = { send: ["say" as const], moderation: { deleteMessage: false, timeout: false } };
  #context: PluginContext | null = null;
  readonly #channel: ChatChannel;

  constructor(
    private readonly served: ServedChannel,
    private readonly settings: HookChatSettings,
    private readonly host: PluginFactoryContext,
  ) {
    this.#channel = { id: served.id, platform_id: served.platform_user_id, username: served.username, avatar_url: served.avatar_url };
  }

  channels(): readonly ChatChannel[] {
    return [this.#channel];
  }

  async connect(context: PluginContext): Promise<void> {
    this.#context = context;
    await this.#call("POST", "/subscriptions", { broadcaster_id: this.served.platform_user_id, events: ["chat", "follow"] });
    context.setStatus("connected", "webhooks subscribed");
  }

  async disconnect(): Promise<void> {
    this.#context = null;
  }

  async send(message: OutgoingMessage): Promise<void> {
    await this.#call("POST", "/chat", { broadcaster_id: this.served.platform_user_id, text: message.text.slice(0, 500) });
  }

  /** A verified webhook event of this channel: chat to the bot runtime, a follow to the alerts. */
  handle(event: HookChatEvent): void {
    const context = this.#context;
    if (!context) return;
    const user = { id: event.user.id.slice(0, 64), name: event.user.name.slice(0, 64) };
    if (event.type === "follow") {
      context.emitNotification(platformNotification({ platform: "hookchat", type: "follow", id: event.id, createdAt: null, channel: this.#channel, data: { name: user.name }, raw: event }));
      return;
    }
    const text = (event.text ?? "").slice(0, 500);
    context.emitChat({
      id: event.id,
      type: "message",
      timestamp: Date.now(),
      platform: "hookchat",
      user: { platform_id: user.id, username: user.name, avatar_url: "", color: null, badges: [] },
      channel: this.#channel,
      message: text,
      fragments: [{ type: "text", text }],
      parent: null,
      attributes: { edited: false, accent: null, action: false, highlight: false },
    });
  }

  async #call(method: string, path: string, body: unknown, retried = false): Promise<void> {
    const tokens = this.host.credentials.tokens(this.served.connection_id);
    if (!tokens?.access_token) throw new Unauthorized("No HookChat tokens: reconnect HookChat");
    const answer = await fetch(`${this.settings.apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${tokens.access_token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    if (answer.status === 401 && !retried) {
      try {
        await this.host.credentials.refresh(this.served.connection_id, `${this.settings.apiUrl}/oauth/token`);
      } catch {
        throw new Unauthorized("HookChat refused the link: reconnect HookChat");
      }
      return this.#call(method, path, body, true);
    }
    if (answer.status === 401) throw new Unauthorized("HookChat refused the link: reconnect HookChat");
    if (!answer.ok) throw new Error(`HookChat answered ${answer.status} to ${method} ${path}`);
  }
}

/** Checks the HMAC of a webhook body in constant time. */
export function verifySignature(secret: string, body: string, signature: string | undefined): boolean {
  if (!signature || !/^[0-9a-f]{64}$/.test(signature)) return false;
  const expected = createHmac("sha256", secret).update(body, "utf8").digest();
  return timingSafeEqual(expected, Buffer.from(signature, "hex"));
}

/**
 * The HookChat plugin: every linked HookChat channel with the bot on gets a {@link HookChatChannel}
 * (plugin API 1.1, through `ChannelPlugins`), and HookChat's webhooks arrive on
 * `POST /v1/platforms/hookchat/webhook`, verified, de-duplicated across restarts and routed to the
 * channel of their broadcaster.
 */
export function hookChatPlugin(settings: HookChatSettings, host: PluginFactoryContext): ChannelPlugins<HookChatChannel> {
  const plugins = new ChannelPlugins<HookChatChannel>({
    metadata: METADATA,
    capabilities: { send: ["say"], moderation: { deleteMessage: false, timeout: false } },
    platform: { name: "HookChat" },
    create: (channel) => new HookChatChannel(channel, settings, host),
    classify: (error) =>
      error instanceof Unauthorized ? { state: "needs_reconnect", detail: "Reconnect HookChat: the link was revoked or has expired" } : { state: "failed", detail: error instanceof Error ? error.message : String(error) },
  });
  host.routes.add({
    method: "POST",
    path: "/webhook",
    handler: async (request) => {
      const secret = host.credentials.app()?.client_secret;
      if (!secret) return { status: 503, body: { message: "HookChat is not set up on this server" } };
      const signature = request.headers[SIGNATURE_HEADER];
      if (!verifySignature(secret, request.body, typeof signature === "string" ? signature : undefined)) return { status: 403, body: { message: "bad signature" } };
      let event: HookChatEvent;
      try {
        event = JSON.parse(request.body) as HookChatEvent;
      } catch {
        return { status: 400, body: { message: "the body is not JSON" } };
      }
      if (typeof event.id !== "string" || typeof event.broadcaster_id !== "string") return { status: 400, body: { message: "id and broadcaster_id are required" } };
      if (!(await host.state.claim(`event:${event.id}`, 24 * 3600_000))) return { status: 200, body: { status: "duplicate" } };
      plugins.unitFor(event.broadcaster_id)?.handle(event);
      return { status: 200, body: { status: "ok" } };
    },
  });
  return plugins;
}
