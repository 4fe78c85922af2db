import type { Logger } from "pino";
import { request } from "undici";
import { z } from "zod";
import { TWITCH_ERROR_CODES, TwitchError } from "../errors.js";

/** Credentials of a Twitch application and user token. */
export interface TwitchTokens {
  clientId: string;
  accessToken: string;
  /** With `clientSecret`, lets the client refresh an expired access token. */
  refreshToken?: string | undefined;
  clientSecret?: string | undefined;
}

/** Options of a {@link HelixClient}. */
export interface HelixClientOptions {
  tokens: TwitchTokens;
  /** Where refreshes are logged (replace later with {@link HelixClient.useLogger}). */
  logger?: Logger;
  /** Default `https://api.twitch.tv/helix`. */
  baseUrl?: string;
  /** Default `https://id.twitch.tv/oauth2/token`. */
  tokenUrl?: string;
  /** Called with the new tokens after a refresh, so the host can store them. */
  onTokensRefreshed?: (tokens: { accessToken: string; refreshToken: string | undefined }) => void;
  /** Per-request timeout in ms (default 10 000). */
  timeoutMs?: number;
}

type Query = Record<string, string | readonly string[] | undefined>;

const tokenResponseSchema = z.object({ access_token: z.string().min(1), refresh_token: z.string().optional() });
const dataSchema = z.object({ data: z.array(z.record(z.string(), z.unknown())) });

/** A Helix API client over undici: bearer + Client-Id, and on 401 one refresh and one retry. */
export class HelixClient {
  readonly #options: HelixClientOptions;
  readonly #tokens: TwitchTokens;
  #refreshing: Promise<void> | null = null;
  #logger: Logger | null;

  constructor(options: HelixClientOptions) {
    this.#options = options;
    this.#tokens = { ...options.tokens };
    this.#logger = options.logger ?? null;
  }

  /** Logs through `logger` from now on (the plugin's logger once it is connected). */
  useLogger(logger: Logger): void {
    this.#logger = logger;
  }

  /** The current access token (after any refresh). */
  get accessToken(): string {
    return this.#tokens.accessToken;
  }

  /**
   * Calls Helix. Returns the parsed JSON body (null for 204). A 401 triggers one token refresh and
   * one retry; any other non-2xx rejects with a {@link TwitchError} carrying Twitch's message.
   */
  async call(method: "GET" | "POST" | "PATCH" | "DELETE", path: string, query: Query = {}, body?: unknown): Promise<unknown> {
    const first = await this.#send(method, path, query, body);
    if (first.status !== 401) return this.#result(method, path, first);
    await this.refresh();
    return this.#result(method, path, await this.#send(method, path, query, body));
  }

  /** Refreshes the access token once, however many calls are waiting on it. */
  refresh(): Promise<void> {
    this.#refreshing ??= this.#refresh().finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  /** `data` of a Helix list response. */
  async list(path: string, query: Query = {}): Promise<Record<string, unknown>[]> {
    const body = dataSchema.safeParse(await this.call("GET", path, query));
    if (!body.success) {
      throw new TwitchError(TWITCH_ERROR_CODES.helix, `Helix GET ${path} answered without a data array`, { details: { path } });
    }
    return body.data.data;
  }

  async #refresh(): Promise<void> {
    const { refreshToken, clientSecret, clientId } = this.#tokens;
    if (!refreshToken || !clientSecret) {
      throw new TwitchError(
        TWITCH_ERROR_CODES.unauthorized,
        "Twitch refused the access token and it cannot be refreshed: configure a refresh token and client secret",
      );
    }
    const response = await request(this.#options.tokenUrl ?? "https://id.twitch.tv/oauth2/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId, client_secret: clientSecret }).toString(),
      headersTimeout: this.#options.timeoutMs ?? 10_000,
      bodyTimeout: this.#options.timeoutMs ?? 10_000,
    });
    const text = await response.body.text();
    const parsed = response.statusCode === 200 ? tokenResponseSchema.safeParse(safeJson(text)) : null;
    if (!parsed?.success) {
      throw new TwitchError(TWITCH_ERROR_CODES.unauthorized, `Refreshing the Twitch token failed (HTTP ${response.statusCode})`, {
        details: { status: response.statusCode },
      });
    }
    this.#tokens.accessToken = parsed.data.access_token;
    if (parsed.data.refresh_token) this.#tokens.refreshToken = parsed.data.refresh_token;
    this.#logger?.info("Twitch access token refreshed");
    this.#options.onTokensRefreshed?.({ accessToken: this.#tokens.accessToken, refreshToken: this.#tokens.refreshToken });
  }

  async #send(method: string, path: string, query: Query, body: unknown): Promise<{ status: number; text: string }> {
    const url = new URL(`${(this.#options.baseUrl ?? "https://api.twitch.tv/helix").replace(/\/$/, "")}${path}`);
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined) continue;
      for (const item of typeof value === "string" ? [value] : value) url.searchParams.append(key, item);
    }
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#tokens.accessToken}`,
      "client-id": this.#tokens.clientId,
    };
    if (body !== undefined) headers["content-type"] = "application/json";
    try {
      const response = await request(url, {
        method: method as "GET",
        headers,
        body: body === undefined ? null : JSON.stringify(body),
        headersTimeout: this.#options.timeoutMs ?? 10_000,
        bodyTimeout: this.#options.timeoutMs ?? 10_000,
      });
      return { status: response.statusCode, text: await response.body.text() };
    } catch (cause) {
      throw new TwitchError(TWITCH_ERROR_CODES.helix, `Helix ${method} ${path} failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
        cause,
        details: { path },
      });
    }
  }

  #result(method: string, path: string, response: { status: number; text: string }): unknown {
    if (response.status >= 200 && response.status < 300) return response.text === "" ? null : safeJson(response.text);
    const body = safeJson(response.text);
    const message = typeof body === "object" && body !== null && "message" in body ? String(body.message) : response.text.slice(0, 200);
    throw new TwitchError(
      response.status === 401 ? TWITCH_ERROR_CODES.unauthorized : TWITCH_ERROR_CODES.helix,
      `Helix ${method} ${path} answered ${response.status}: ${message}`,
      { details: { status: response.status, path } },
    );
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
