import type { ChannelState, ChannelTokens, PluginContext, ServedChannel } from "@ovation/core/contracts";
import { request } from "undici";
import { definedKeys } from "@ovation/core/contracts";
import { TwitchError } from "../errors.js";
import { EventSubSocket } from "../eventsub/socket.js";
import type { EventSubNotification } from "../eventsub/wire.js";
import { SUBSCRIPTIONS } from "../eventsub/subscriptions.js";
import { HelixClient } from "../helix/client.js";
import { createEventSubSubscription } from "../helix/endpoints.js";
import { missingEventSubScopes } from "./scopes.js";

/** How often a link's token is validated while it is served (Twitch asks apps to validate hourly). */
export const VALIDATE_EVERY_MS = 60 * 60 * 1000;

/** What a broadcaster's EventSub part needs from the plugin. */
export interface BroadcasterOptions {
  channel: ServedChannel;
  tokens: ChannelTokens;
  clientId: string;
  clientSecret: string | undefined;
  helixUrl: string | undefined;
  tokenUrl: string | undefined;
  eventsubUrl: string;
  context: PluginContext;
  /** Writes refreshed tokens back to the store. */
  save(tokens: ChannelTokens): void;
  /** The channel's EventSub state changed. */
  onState(state: ChannelState, detail: string | null, missing?: readonly string[]): void;
  onNotification(notification: EventSubNotification): void;
  /** EventSub is live for the channel (IRC stands in for subs and raids otherwise). */
  onLive(live: boolean): void;
}

/**
 * One served channel's EventSub: a WebSocket session of its own, whose subscriptions are created
 * with the broadcaster's token (Twitch creates the broadcaster-only types — subscriptions, cheers,
 * redemptions — only with it). The token is validated at start and hourly (`/oauth2/validate`); a
 * token Twitch refuses is refreshed once, and a refused refresh marks the channel "needs
 * reconnecting". Every refresh is written back to the store.
 */
export class BroadcasterEventSub {
  readonly #o: BroadcasterOptions;
  readonly #helix: HelixClient;
  #socket: EventSubSocket | null = null;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;
  #scopes: string[];

  constructor(options: BroadcasterOptions) {
    this.#o = options;
    this.#scopes = [...options.tokens.scopes];
    this.#helix = new HelixClient({
      tokens: {
        clientId: options.clientId,
        accessToken: options.tokens.access_token ?? "",
        refreshToken: options.tokens.refresh_token ?? undefined,
        clientSecret: options.clientSecret,
      },
      ...definedKeys({ baseUrl: options.helixUrl, tokenUrl: options.tokenUrl }),
      logger: options.context.logger,
      onTokensRefreshed: (t) => options.save({ access_token: t.accessToken, refresh_token: t.refreshToken ?? null, expires_at: 0, scopes: this.#scopes }),
    });
  }

  /** The Helix client on the broadcaster's token (platform actions: shoutouts, polls). */
  get helix(): HelixClient {
    return this.#helix;
  }

  /** The scopes the broadcaster's token holds, as last validated. */
  get scopes(): readonly string[] {
    return this.#scopes;
  }

  /** Validates the token, then opens the session and subscribes; resolves once subscribed (or refused). */
  async start(): Promise<void> {
    if (!(await this.validate())) return;
    this.#timer = setInterval(() => void this.validate(), VALIDATE_EVERY_MS);
    this.#timer.unref();
    const { channel, context } = this.#o;
    const broadcasterId = channel.platform_user_id;
    this.#socket = new EventSubSocket({
      url: this.#o.eventsubUrl,
      logger: context.logger,
      onSession: async (sessionId) => {
        const refused: string[] = [];
        const missing = new Set<string>();
        for (const spec of SUBSCRIPTIONS) {
          try {
            await createEventSubSubscription(this.#helix, { type: spec.type, version: spec.version, condition: spec.condition(broadcasterId, broadcasterId) }, sessionId);
          } catch (err) {
            const status = err instanceof TwitchError ? err.details.status : undefined;
            if (status === 409) continue;
            refused.push(spec.type);
            if (status === 403 && spec.scope) missing.add(spec.scope);
          }
        }
        if (missing.size > 0) this.#o.onState("missing_scope", `Reconnect Twitch and allow every permission: ${[...missing].join(", ")}`, [...missing]);
        else if (refused.length > 0) throw new Error(`Twitch refused: ${refused.join(", ")}`);
      },
      onNotification: (notification) => this.#o.onNotification(notification),
      onRevocation: (subscription) => {
        context.logger.warn({ type: subscription.type, status: subscription.status }, "EventSub subscription revoked");
        if (subscription.status === "authorization_revoked" || subscription.status === "user_removed") void this.validate();
      },
      onState: (state, detail) => {
        this.#o.onLive(state === "connected" && detail === null);
        if (state === "reconnecting") this.#o.onState("serving", `alerts reconnecting: ${detail ?? ""}`);
      },
    });
    try {
      await this.#socket.start();
    } catch (err) {
      this.#o.onState("serving", `alerts unavailable, retrying: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /**
   * `GET /oauth2/validate`: true when the token (or, after a 401, a refreshed one) is valid. Marks
   * the channel "needs reconnecting" when Twitch refuses both, and "missing scope" when the token
   * lacks scopes EventSub needs.
   */
  async validate(): Promise<boolean> {
    if (this.#stopped) return false;
    let answer = await this.#validateOnce();
    if (answer === "refused") {
      try {
        await this.#helix.refresh();
        answer = await this.#validateOnce();
      } catch {
        answer = "refused";
      }
    }
    if (answer === "refused") {
      this.#o.onState("needs_reconnect", "Reconnect Twitch: the link was revoked or has expired");
      this.#socket?.stop();
      return false;
    }
    if (answer === "unreachable") return true;
    this.#scopes = answer.scopes;
    const missing = missingEventSubScopes(answer.scopes);
    if (missing.length > 0) this.#o.onState("missing_scope", `Reconnect Twitch and allow every permission: ${missing.join(", ")}`, missing);
    return true;
  }

  async #validateOnce(): Promise<{ scopes: string[] } | "refused" | "unreachable"> {
    const base = new URL(this.#o.tokenUrl ?? "https://id.twitch.tv/oauth2/token");
    try {
      const answer = await request(new URL("/oauth2/validate", base.origin), { headers: { authorization: `OAuth ${this.#helix.accessToken}` }, headersTimeout: 10_000, bodyTimeout: 10_000 });
      const json = (await answer.body.json().catch(() => ({}))) as { scopes?: unknown };
      if (answer.statusCode === 401) return "refused";
      if (answer.statusCode !== 200) return "unreachable";
      return { scopes: Array.isArray(json.scopes) ? json.scopes.filter((s): s is string => typeof s === "string") : [] };
    } catch (err) {
      this.#o.context.logger.warn({ err: err instanceof Error ? err.message : String(err) }, "Twitch token validation unreachable; tried again in an hour");
      return "unreachable";
    }
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#socket?.stop();
    this.#socket = null;
  }
}
