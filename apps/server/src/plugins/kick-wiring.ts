import { definePlugin } from "@ovation/core/contracts";
import type { PluginFactory } from "@ovation/core/contracts";
import { KICK_WEBHOOK_PATH, KickPlugin, kickSettingsSchema } from "@ovation/plugin-kick";
import type { KickSettings } from "@ovation/plugin-kick";
import type { FastifyInstance } from "fastify";
import type { OvationServices } from "../services.js";
import { linkedTokens } from "./linked-tokens.js";

/** Kick plugin settings read from `OVATION_KICK_<KEY>` (see the plugin's README). */
export type KickEnv = KickSettings;

/**
 * The Kick plugin for one user: tokens from the user's Kick connection (linked under Connections,
 * OAuth 2.1 with PKCE) or `OVATION_KICK_REFRESH_TOKEN`; every refresh is written back to the
 * connection's stored tokens.
 */
export function kickPlugin(settings: KickEnv, services: OvationServices): KickPlugin {
  const tokens = linkedTokens(services, "kick", settings);
  return new KickPlugin(
    {
      channelId: String(tokens.userId),
      clientId: settings.clientId,
      clientSecret: settings.clientSecret,
      ...(tokens.refreshToken ? { tokens: { refreshToken: tokens.refreshToken, scopes: tokens.scopes, ...(tokens.access ?? {}) } } : {}),
      ...(settings.mode ? { mode: settings.mode } : {}),
      ...(settings.webhookPublicKey ? { webhookPublicKey: settings.webhookPublicKey } : {}),
      ...(settings.webhookToleranceSeconds !== undefined ? { webhookToleranceSeconds: settings.webhookToleranceSeconds } : {}),
      ...(settings.subscribe !== undefined ? { subscribe: settings.subscribe } : {}),
      ...(settings.chatroomId ? { chatroomId: settings.chatroomId } : {}),
      ...(settings.pusherUrl ? { pusherUrl: settings.pusherUrl } : {}),
      ...(settings.apiUrl ? { apiUrl: settings.apiUrl } : {}),
      ...(settings.tokenUrl ? { tokenUrl: settings.tokenUrl } : {}),
      ...(settings.sendAs ? { sendAs: settings.sendAs } : {}),
      ...(settings.sendGapMs !== undefined ? { sendGapMs: settings.sendGapMs } : {}),
    },
    { onTokensRefreshed: (t) => tokens.refreshed(t), onChannel: (channel) => tokens.account(channel) },
  );
}

/**
 * The Kick plugin factory (`OVATION_PLUGINS=kick`): settings from `OVATION_KICK_<KEY>` (or
 * `plugins.kick` of the config file), created once the server listens (after the first run) for the
 * server's `services`, whose connections store the Kick tokens. Without services (the settings check
 * of `ovation plugins`) it only validates.
 */
export function kickFactory(services: OvationServices | null): PluginFactory {
  return definePlugin({ id: "kick", settings: kickSettingsSchema, envPrefix: "OVATION_KICK_", createOn: "listen" }, (settings) => {
    if (!services) throw new Error("the kick plugin runs only inside the server");
    return kickPlugin(settings, services);
  });
}

/**
 * `POST /v1/platforms/kick/webhook`: where Kick delivers events. The raw body is kept for the
 * signature check; the answer goes out as soon as the request is verified (the event is handled
 * right after). Unauthenticated by design: the RSA signature is the authentication.
 */
export async function kickWebhookRoute(app: FastifyInstance, plugin: () => KickPlugin | null): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string", bodyLimit: 256 * 1024 }, (_req, body, done) => done(null, body));
    scope.post(KICK_WEBHOOK_PATH, { schema: { hide: true }, config: { rateLimit: { max: 1200, timeWindow: "1 minute" } } }, async (request, reply) => {
      const kick = plugin();
      if (!kick) {
        request.log.warn("Kick webhook refused: the kick plugin is not running");
        return reply.code(503).send({ message: "The Kick plugin is not running yet.", reason: "not_connected" });
      }
      const body = typeof request.body === "string" ? request.body : "";
      const verdict = kick.handleWebhook({ headers: request.headers, body });
      if (verdict.accepted) return reply.code(200).send({ status: "ok" });
      return reply.code(verdict.status).send({ message: `Webhook refused: ${verdict.detail}`, reason: verdict.reason });
    });
  });
}
