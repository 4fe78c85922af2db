import type { PluginContext } from "@ovation/core/contracts";
import type { z } from "zod";
import { KICK_ERROR_CODES, KickError } from "../errors.js";
import { tokenResponseSchema } from "./wire.js";

type Logger = PluginContext["logger"];

/** A user's Kick tokens; `expiresAt` in ms since the epoch (0: unknown). */
export interface KickTokens {
  accessToken: string | null;
  refreshToken: string | null;
  expiresAt: number;
  scopes: string[];
}

/** Settings of a {@link KickApiClient}. */
export interface KickApiClientOptions {
  /** https://api.kick.com/public/v1 */
  apiUrl: string;
  /** https://id.kick.com/oauth/token */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** The linked user's tokens (null: app token only, no chat sending). */
  tokens: KickTokens | null;
  /** Refresh the user token this long before it expires. */
  refreshMarginMs: number;
  logger: Logger;
  /** Awaited after every refresh: persist the new tokens. */
  onTokensRefreshed?: (tokens: KickTokens) => void | Promise<void>;
}

/** Who a call acts as: the linked user, or the app itself (client credentials). */
export type KickAuth = "user" | "app";

/** What a failed call tells: HTTP status, Kick's message, and a Retry-After in ms when given. */
export interface ApiFailure {
  status: number;
  message: string;
  retryAfterMs: number | null;
}

/** The failure details of a KickError from a call, or null. */
export function apiFailure(err: unknown): ApiFailure | null {
  if (!(err instanceof KickError) || typeof err.details.status !== "number") return null;
  const retry = err.details.retryAfterMs;
  return { status: err.details.status, message: err.message, retryAfterMs: typeof retry === "number" ? retry : null };
}

/**
 * Kick's OAuth 2.1 token endpoint and public API: user tokens (refreshed before expiry and on a
 * 401, each refresh handed to `onTokensRefreshed`), an app token by client credentials, and JSON
 * calls that name the HTTP status, Kick's message and Retry-After when they fail.
 */
export class KickApiClient {
  readonly #o: KickApiClientOptions;
  #user: KickTokens | null;
  #app: { token: string; expiresAt: number } | null = null;
  #refreshing: Promise<void> | null = null;

  constructor(options: KickApiClientOptions) {
    this.#o = options;
    this.#user = options.tokens ? { ...options.tokens } : null;
  }

  /** True when a user token (or a refresh token to get one) is present. */
  get hasUser(): boolean {
    return this.#user !== null && (this.#user.accessToken !== null || this.#user.refreshToken !== null);
  }

  /** A valid user access token, refreshed first when missing or about to expire. */
  async userToken(): Promise<string> {
    const u = this.#user;
    if (!u || (u.accessToken === null && u.refreshToken === null)) throw new KickError(KICK_ERROR_CODES.unauthorized, "No Kick user token: link Kick under Connections");
    if (u.accessToken === null || (u.expiresAt > 0 && u.expiresAt - this.#o.refreshMarginMs <= Date.now())) await this.refresh(u.accessToken);
    return (this.#user as KickTokens).accessToken as string;
  }

  /** An app access token (client credentials), fetched once and again when it expires. */
  async appToken(): Promise<string> {
    if (this.#app && this.#app.expiresAt - 60_000 > Date.now()) return this.#app.token;
    const answer = await this.#token({ grant_type: "client_credentials" });
    this.#app = { token: answer.access_token, expiresAt: Date.now() + answer.expires_in * 1000 };
    return this.#app.token;
  }

  /** Refreshes the user token unless another call did since `refused` was read. */
  refresh(refused: string | null): Promise<void> {
    if (this.#user && refused !== null && this.#user.accessToken !== refused) return Promise.resolve();
    this.#refreshing ??= this.#doRefresh().finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  async #doRefresh(): Promise<void> {
    const u = this.#user;
    if (!u?.refreshToken) throw new KickError(KICK_ERROR_CODES.unauthorized, "The Kick access token expired and there is no refresh token");
    const answer = await this.#token({ grant_type: "refresh_token", refresh_token: u.refreshToken });
    this.#user = {
      accessToken: answer.access_token,
      // Kick rotates refresh tokens; keep the old one when none came back.
      refreshToken: answer.refresh_token ?? u.refreshToken,
      expiresAt: Date.now() + answer.expires_in * 1000,
      scopes: answer.scope ? answer.scope.split(/\s+/).filter(Boolean) : u.scopes,
    };
    this.#o.logger.info({ expiresAt: this.#user.expiresAt }, "Kick user token refreshed");
    await this.#o.onTokensRefreshed?.({ ...this.#user });
  }

  async #token(params: Record<string, string>): Promise<z.output<typeof tokenResponseSchema>> {
    const body = new URLSearchParams({ ...params, client_id: this.#o.clientId, client_secret: this.#o.clientSecret });
    let response: Response;
    try {
      response = await fetch(this.#o.tokenUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body,
        signal: AbortSignal.timeout(15_000),
      });
    } catch (err) {
      throw new KickError(KICK_ERROR_CODES.api, `Kick's token endpoint is unreachable: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    const json: unknown = await response.json().catch(() => null);
    if (response.status === 400 || response.status === 401) {
      const what = params.grant_type === "client_credentials" ? "the app credentials (OVATION_KICK_CLIENT_ID/SECRET)" : "the refresh token";
      throw new KickError(KICK_ERROR_CODES.unauthorized, `Kick refused ${what}: ${describe(json, response.status)}`, { details: { status: response.status } });
    }
    const parsed = tokenResponseSchema.safeParse(json);
    if (!response.ok || !parsed.success) throw new KickError(KICK_ERROR_CODES.api, `Kick's token endpoint answered ${response.status}: ${describe(json, response.status)}`, { details: { status: response.status } });
    return parsed.data;
  }

  /**
   * One public API call. A 401 on a user call refreshes the token once and retries; a failure
   * throws KickError with `details.status` (and `retryAfterMs` on 429).
   */
  async call<S extends z.ZodType>(method: string, path: string, auth: KickAuth, schema: S, body?: unknown): Promise<z.output<S>> {
    for (let attempt = 0; ; attempt++) {
      const token = auth === "user" ? await this.userToken() : await this.appToken();
      let response: Response;
      try {
        response = await fetch(`${this.#o.apiUrl}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(20_000),
        });
      } catch (err) {
        throw new KickError(KICK_ERROR_CODES.api, `Kick's API is unreachable: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      }
      const json: unknown = await response.json().catch(() => null);
      if (response.status === 401 && attempt === 0) {
        if (auth === "user") await this.refresh(token);
        else this.#app = null;
        continue;
      }
      if (response.status === 401) throw new KickError(KICK_ERROR_CODES.unauthorized, `Kick refused the ${auth} token: ${describe(json, 401)}`, { details: { status: 401 } });
      if (response.status === 429) {
        const seconds = Number(response.headers.get("retry-after"));
        const retryAfterMs = Number.isFinite(seconds) && seconds >= 0 && response.headers.get("retry-after") !== null ? seconds * 1000 : null;
        throw new KickError(KICK_ERROR_CODES.rateLimited, `Kick rate limit on ${method} ${path}`, { details: { status: 429, retryAfterMs } });
      }
      if (!response.ok) throw new KickError(KICK_ERROR_CODES.api, `Kick ${method} ${path} answered ${response.status}: ${describe(json, response.status)}`, { details: { status: response.status } });
      const parsed = schema.safeParse(json);
      if (!parsed.success) throw new KickError(KICK_ERROR_CODES.api, `Kick ${method} ${path} answered an unexpected shape: ${parsed.error.issues[0]?.message ?? "invalid"}`, { details: { status: response.status } });
      return parsed.data;
    }
  }
}

function describe(json: unknown, status: number): string {
  const o = typeof json === "object" && json !== null ? (json as Record<string, unknown>) : {};
  const text = [o.error, o.message, o.error_description].find((v) => typeof v === "string");
  return typeof text === "string" ? text.slice(0, 200) : `HTTP ${status}`;
}
