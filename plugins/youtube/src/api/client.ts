import type { Logger } from "pino";
import type { z } from "zod";
import { YOUTUBE_ERROR_CODES, YouTubeError } from "../errors.js";
import type { QuotaBudget, QuotaMethod } from "./quota.js";
import { googleErrorSchema, googleTokenSchema } from "./wire.js";

/** The OAuth 2.0 tokens of the linked YouTube account. */
export interface GoogleTokens {
  /** Current access token; null to refresh before the first call. */
  accessToken: string | null;
  refreshToken: string;
  /** When the access token expires (ms since the epoch); 0 when unknown. */
  expiresAt: number;
}

/** Settings of a {@link DataApiClient}. */
export interface DataApiClientOptions {
  /** Base URL of the Data API (`https://www.googleapis.com/youtube/v3`). */
  apiUrl: string;
  /** Google's token endpoint (`https://oauth2.googleapis.com/token`). */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  tokens: GoogleTokens;
  quota: QuotaBudget;
  /** Refresh this long before the access token expires. */
  refreshMarginMs: number;
  /** Called after every refresh, awaited: store the new tokens so a restart uses them. */
  onTokensRefreshed?: (tokens: GoogleTokens) => void | Promise<void>;
  logger?: Logger;
  now?: () => number;
}

/** What a failed call tells: HTTP status, Google's reason, and how long a 429 asked to wait. */
export interface ApiFailure {
  status: number;
  reason: string;
  retryAfterMs: number | null;
}

/** The failure of a Data API call, or null when `err` is something else. */
export function apiFailure(err: unknown): ApiFailure | null {
  if (!(err instanceof YouTubeError)) return null;
  const { status, reason, retryAfterMs } = err.details as { status?: unknown; reason?: unknown; retryAfterMs?: unknown };
  if (typeof status !== "number") return null;
  return { status, reason: typeof reason === "string" ? reason : "", retryAfterMs: typeof retryAfterMs === "number" ? retryAfterMs : null };
}

/**
 * A small client of the YouTube Data API v3: bearer token refreshed before it expires (and on a
 * 401, once), every call charged to the {@link QuotaBudget}, Google's error body turned into a
 * {@link YouTubeError} with the status and reason.
 */
export class DataApiClient {
  readonly #options: DataApiClientOptions;
  readonly #now: () => number;
  #tokens: GoogleTokens;
  #refreshing: Promise<void> | null = null;

  constructor(options: DataApiClientOptions) {
    this.#options = options;
    this.#tokens = { ...options.tokens };
    this.#now = options.now ?? Date.now;
  }

  /** The tokens in use (for tests and the status page; never logged). */
  get tokens(): GoogleTokens {
    return { ...this.#tokens };
  }

  /** Refreshes the access token now; concurrent callers share one refresh. */
  refresh(): Promise<void> {
    this.#refreshing ??= this.#doRefresh().finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  async #doRefresh(): Promise<void> {
    const o = this.#options;
    let response: Response;
    try {
      response = await fetch(o.tokenUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: this.#tokens.refreshToken, client_id: o.clientId, client_secret: o.clientSecret }),
        signal: AbortSignal.timeout(15_000),
      });
    } catch (cause) {
      throw new YouTubeError(YOUTUBE_ERROR_CODES.api, `Google's token endpoint is unreachable: ${String(cause)}`, { cause, details: { status: 0, reason: "network" } });
    }
    const text = await response.text();
    if (!response.ok) {
      let reason = `HTTP ${response.status}`;
      try {
        const body = JSON.parse(text) as { error?: unknown; error_description?: unknown };
        if (typeof body.error === "string") reason = body.error + (typeof body.error_description === "string" ? ` (${body.error_description})` : "");
      } catch {
        // not JSON: the status says enough
      }
      if (response.status === 400 || response.status === 401) {
        throw new YouTubeError(
          YOUTUBE_ERROR_CODES.unauthorized,
          `Google refused to refresh the YouTube token (${reason}): the access was revoked or has expired; link YouTube again under Connections`,
          { details: { status: response.status, reason } },
        );
      }
      throw new YouTubeError(YOUTUBE_ERROR_CODES.api, `Google's token endpoint failed (${reason})`, { details: { status: response.status, reason } });
    }
    let parsed: z.infer<typeof googleTokenSchema>;
    try {
      parsed = googleTokenSchema.parse(JSON.parse(text));
    } catch (cause) {
      throw new YouTubeError(YOUTUBE_ERROR_CODES.api, "Google's token answer has no access token", { cause, details: { status: response.status, reason: "malformed" } });
    }
    this.#tokens = {
      accessToken: parsed.access_token,
      refreshToken: parsed.refresh_token ?? this.#tokens.refreshToken,
      expiresAt: this.#now() + (parsed.expires_in ?? 3600) * 1000,
    };
    try {
      await o.onTokensRefreshed?.({ ...this.#tokens });
    } catch (err) {
      o.logger?.error({ err }, "the refreshed YouTube token could not be stored; a restart will refresh again");
    }
  }

  async #accessToken(): Promise<string> {
    const t = this.#tokens;
    if (t.accessToken === null || (t.expiresAt > 0 && t.expiresAt - this.#options.refreshMarginMs <= this.#now())) await this.refresh();
    return this.#tokens.accessToken as string;
  }

  /**
   * Calls one Data API method and validates the answer with `schema`.
   * @throws YouTubeError `OVATION_ERR_YOUTUBE_API` (status/reason in details), `..._QUOTA`, `..._UNAUTHORIZED`.
   */
  async call<S extends z.ZodType>(
    method: QuotaMethod,
    request: { verb: "GET" | "POST" | "DELETE"; path: string; query: Record<string, string | undefined>; body?: unknown },
    schema: S,
  ): Promise<z.output<S>> {
    return this.#call(method, request, schema, true);
  }

  async #call<S extends z.ZodType>(
    method: QuotaMethod,
    request: { verb: "GET" | "POST" | "DELETE"; path: string; query: Record<string, string | undefined>; body?: unknown },
    schema: S,
    retryAuth: boolean,
  ): Promise<z.output<S>> {
    const token = await this.#accessToken();
    const url = new URL(`${this.#options.apiUrl.replace(/\/$/, "")}/${request.path}`);
    for (const [key, value] of Object.entries(request.query)) if (value !== undefined) url.searchParams.set(key, value);
    this.#options.quota.charge(method);
    let response: Response;
    try {
      response = await fetch(url, {
        method: request.verb,
        headers: { authorization: `Bearer ${token}`, accept: "application/json", ...(request.body === undefined ? {} : { "content-type": "application/json" }) },
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        signal: AbortSignal.timeout(20_000),
      });
    } catch (cause) {
      throw new YouTubeError(YOUTUBE_ERROR_CODES.api, `${method}: the Data API is unreachable: ${String(cause)}`, { cause, details: { status: 0, reason: "network" } });
    }
    const text = await response.text();
    if (response.status === 401 && retryAuth) {
      // Another call may have refreshed meanwhile: refresh only when the refused token is still current.
      if (this.#tokens.accessToken === token) await this.refresh();
      return this.#call(method, request, schema, false);
    }
    if (!response.ok) throw this.#failure(method, response, text);
    if (response.status === 204 || text === "") return schema.parse({}) as z.output<S>;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      throw new YouTubeError(YOUTUBE_ERROR_CODES.api, `${method}: the answer is not JSON`, { cause, details: { status: response.status, reason: "malformed" } });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new YouTubeError(YOUTUBE_ERROR_CODES.api, `${method}: unexpected answer (${parsed.error.issues[0]?.message ?? "invalid"})`, {
        details: { status: response.status, reason: "malformed" },
      });
    }
    return parsed.data as z.output<S>;
  }

  #failure(method: QuotaMethod, response: Response, text: string): YouTubeError {
    let reason = "";
    let message = `HTTP ${response.status}`;
    try {
      const body = googleErrorSchema.parse(JSON.parse(text));
      reason = body.error.errors?.[0]?.reason ?? body.error.status ?? "";
      if (body.error.message) message = body.error.message;
    } catch {
      // not Google's error body: status only
    }
    const retryAfter = Number(response.headers.get("retry-after"));
    const details = { status: response.status, reason, retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : null };
    if (reason === "quotaExceeded" || reason === "dailyLimitExceeded") {
      this.#options.quota.markExhausted();
      return new YouTubeError(YOUTUBE_ERROR_CODES.quota, `${method}: Google's daily quota is used up (${message}); it resets at midnight Pacific Time`, { details });
    }
    if (response.status === 401) {
      return new YouTubeError(YOUTUBE_ERROR_CODES.unauthorized, `${method}: Google refused the token (${message}); link YouTube again under Connections`, { details });
    }
    return new YouTubeError(YOUTUBE_ERROR_CODES.api, `${method} failed: HTTP ${response.status}${reason ? ` ${reason}` : ""}: ${message}`, { details });
  }
}
