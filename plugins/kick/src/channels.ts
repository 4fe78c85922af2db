import { definePlugin } from "@ovation/core/contracts";
import type { PluginFactoryContext, ServedChannel } from "@ovation/core/contracts";
import { ChannelPlugins } from "@ovation/core/plugin-kit";
import { KICK_ERROR_CODES, KickError } from "./errors.js";
import { KICK_PLUGIN_VERSION, KickPlugin } from "./plugin.js";
import { KICK_WEBHOOK_TOLERANCE_SECONDS, kickSettingsSchema } from "./options.js";
import type { KickSettings } from "./options.js";
import { KickWebhookVerifier } from "./webhook/verifier.js";
import type { WebhookVerdict } from "./webhook/verifier.js";
import { KICK_PUBLIC_KEY_PEM } from "./webhook/signature.js";

/** The scopes a Kick link needs: who the streamer is, their channel, chat answers, event subscriptions. */
export const KICK_SCOPES = ["user:read", "channel:read", "chat:write", "events:subscribe"] as const;

/**
 * The Kick plugin of a server (plugin API 1.1): serves every linked Kick channel whose streamer
 * switched the bot on, each with its own tokens (from the credentials service, every refresh written
 * back), subscribes each broadcaster's events, and receives Kick's webhooks on
 * `POST /v1/platforms/kick/webhook`: the signature and window are checked once, the message id is
 * claimed in the shared state (so a replay is refused after a restart too), and the event goes to
 * the channel of its broadcaster.
 */
export function kickChannelsPlugin(settings: KickSettings, context: PluginFactoryContext): ChannelPlugins<KickPlugin> {
  const publicKey = settings.webhookPublicKey ?? KICK_PUBLIC_KEY_PEM;
  const verifier = new KickWebhookVerifier({ publicKey, toleranceSeconds: settings.webhookToleranceSeconds ?? KICK_WEBHOOK_TOLERANCE_SECONDS });
  const plugins: ChannelPlugins<KickPlugin> = new ChannelPlugins<KickPlugin>({
    metadata: {
      name: "kick",
      platform: "kick",
      version: KICK_PLUGIN_VERSION,
      core: "^0.1.0",
      description: "Kick chat, follows, subscriptions and gifts of every linked channel (public API webhooks)",
    },
    capabilities: { send: ["say", "reply"], moderation: { deleteMessage: false, timeout: false } },
    create: (channel) => kickChannel(settings, context, channel, publicKey),
    classify: (error) => {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof KickError && error.code === KICK_ERROR_CODES.unauthorized) return { state: "needs_reconnect", detail: "Reconnect Kick: the link was revoked or has expired" };
      if (/(reconnect|link) kick|invalid_grant/i.test(message)) return { state: "needs_reconnect", detail: "Reconnect Kick: the link was revoked or has expired" };
      if (error instanceof MissingScopes) return { state: "missing_scope", detail: error.message, missing_scopes: error.missing };
      return { state: "failed", detail: message };
    },
  });
  context.routes.add({
    method: "POST",
    path: "/webhook",
    // Kick sends every channel's deliveries from a few addresses: only refusals (bad signatures,
    // stale timestamps, replays) count, so 10,000 busy channels are never throttled.
    perMinute: 1200,
    limit: "refused",
    handler: async (request) => {
      const verdict = verifier.check({ headers: request.headers, body: request.body });
      if (!verdict.accepted) {
        context.logger.warn({ reason: verdict.reason, detail: verdict.detail, type: verdict.type }, `Kick webhook refused: ${verdict.reason}`);
        return { status: verdict.status, body: { message: `Webhook refused: ${verdict.detail}`, reason: verdict.reason } };
      }
      // Remembered in the store (or Redis) for twice the window: a captured delivery replayed after a restart is refused too.
      if (!(await context.state.claim(`webhook:${verdict.messageId}`, verifier.toleranceMs * 2))) {
        context.logger.warn({ reason: "replay", type: verdict.type }, "Kick webhook refused: replay");
        return { status: 200, refused: true, body: { message: `Webhook refused: message id ${verdict.messageId.slice(0, 64)} was already received`, reason: "replay" } };
      }
      const broadcaster = (verdict.payload as { broadcaster?: { user_id?: unknown } } | null)?.broadcaster?.user_id;
      const unit = broadcaster === undefined ? null : plugins.unitFor(String(broadcaster));
      if (unit) {
        unit.acceptWebhook(verdict);
        return { status: 200, body: { status: "ok" } };
      }
      // Several nodes: the channel may be served by another one; the claim above made this delivery
      // ours alone. Answered at once: the relay may wait for a channel between nodes (Kick wants a quick 200).
      const relay = context.relay;
      if (broadcaster !== undefined && relay) {
        void relay.send(String(broadcaster), verdict).then((sent) => {
          if (!sent) context.logger.warn({ type: verdict.type, broadcaster: String(broadcaster).slice(0, 32) }, "Kick webhook for a channel no node served in time; skipped");
        });
        return { status: 200, body: { status: "ok" } };
      }
      context.logger.warn({ type: verdict.type, broadcaster: String(broadcaster).slice(0, 32) }, "Kick webhook for a channel this server does not serve; skipped");
      return { status: 200, body: { status: "ok" } };
    },
  });
  context.relay?.receive((broadcaster, message) => {
    const verdict = relayedVerdict(message);
    if (!verdict) {
      context.logger.warn({ broadcaster: broadcaster.slice(0, 32) }, "a relayed Kick webhook was not understood; skipped");
      return true;
    }
    // Not served here (any more): the host hands it on to the node that serves the channel now.
    const unit = plugins.unitFor(broadcaster);
    if (!unit) return false;
    unit.acceptWebhook(verdict);
    return true;
  });
  return plugins;
}

type AcceptedVerdict = Extract<WebhookVerdict, { accepted: true }>;

/** A verdict another node relayed (checked there), or null when it is not one. */
function relayedVerdict(message: unknown): AcceptedVerdict | null {
  const m = message as Partial<Record<keyof AcceptedVerdict, unknown>> | null;
  if (m === null || typeof m !== "object" || m.accepted !== true) return null;
  if (typeof m.messageId !== "string" || typeof m.type !== "string" || typeof m.version !== "string" || typeof m.timestamp !== "string") return null;
  return { accepted: true, status: 200, messageId: m.messageId, subscriptionId: typeof m.subscriptionId === "string" ? m.subscriptionId : null, type: m.type, version: m.version, timestamp: m.timestamp, payload: m.payload };
}

/** A link lacks scopes the bot needs. */
class MissingScopes extends Error {
  constructor(readonly missing: string[]) {
    super(`Reconnect Kick and allow: ${missing.join(", ")}`);
  }
}

function kickChannel(settings: KickSettings, context: PluginFactoryContext, channel: ServedChannel, publicKey: string): KickPlugin {
  const tokens = context.credentials.tokens(channel.connection_id);
  if (!tokens?.refresh_token && !tokens?.access_token) throw new KickError(KICK_ERROR_CODES.unauthorized, "No Kick tokens for this channel: reconnect Kick");
  const missing = tokens.scopes.length > 0 ? KICK_SCOPES.filter((s) => !tokens.scopes.includes(s)) : [];
  if (missing.length > 0) throw new MissingScopes(missing);
  return new KickPlugin(
    {
      ...settings,
      channelId: channel.id,
      tokens: {
        refreshToken: tokens.refresh_token ?? "",
        scopes: tokens.scopes,
        ...(tokens.access_token ? { accessToken: tokens.access_token, expiresAt: tokens.expires_at } : {}),
      },
      webhookPublicKey: publicKey,
      // A link's Kick user id is numeric; any other is left to /users.
      ...(/^\d{1,20}$/.test(channel.platform_user_id) ? { broadcasterUserId: channel.platform_user_id } : {}),
    },
    {
      onTokensRefreshed: (t) =>
        context.credentials.save(channel.connection_id, { access_token: t.accessToken, refresh_token: t.refreshToken, expires_at: t.expiresAt, scopes: t.scopes }),
    },
  );
}

/**
 * The Kick plugin factory (`OVATION_PLUGINS=kick`): settings from `OVATION_KICK_<KEY>` (or
 * `plugins.kick` of the config file); serves the linked channels the host gives it.
 */
export const kickFactory = definePlugin({ id: "kick", settings: kickSettingsSchema, envPrefix: "OVATION_KICK_" }, (settings, context) => kickChannelsPlugin(settings, context));
