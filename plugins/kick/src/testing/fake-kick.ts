import { createHash, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { KICK_PUBLIC_KEY_PEM } from "../webhook/signature.js";
import { apiFixtures } from "./fixtures.js";

type Json = Record<string, unknown>;

/** One message the fake received on POST /public/v1/chat. */
export interface SentChat {
  content: string;
  type: string;
  broadcaster_user_id: number;
  reply_to_message_id?: string;
}

/**
 * A fake of Kick's OAuth server (id.kick.com) and public API (api.kick.com/public/v1) on 127.0.0.1,
 * answering the real JSON shapes (fixtures/kick/api-responses.json): authorize (auto-approved) and
 * token with PKCE S256, refresh (rotating the refresh token), client credentials; GET /users,
 * POST /events/subscriptions, POST /chat (with scripted 429s carrying Retry-After), GET /public-key.
 */
export class FakeKick {
  readonly clientId = "01KFAKECLIENT";
  readonly clientSecret = "fake-kick-secret";
  /** The refresh token the fake accepts first (it rotates on every refresh). */
  refreshToken = "kick-refresh-1";
  readonly sent: SentChat[] = [];
  /** Event subscriptions made, by event name. */
  readonly subscriptions: { name: string; version: number; broadcaster_user_id: number }[] = [];
  /** Every request line `METHOD /path` (tokens travel in headers and bodies). */
  readonly requests: string[] = [];
  accessTokenLifetime = 7200;
  refreshes = 0;
  /** The next N chat sends answer 429 with `Retry-After: retryAfterSeconds`. */
  rateLimitNext = 0;
  retryAfterSeconds = 0;
  /** The public key GET /public-key serves: Kick's published one, or set it to the webhook sender's. */
  publicKeyPem = KICK_PUBLIC_KEY_PEM;
  readonly #server: Server;
  readonly #access = new Set<string>();
  readonly #app = new Set<string>();
  readonly #codes = new Map<string, { challenge: string; redirectUri: string }>();
  #revoked = false;

  private constructor() {
    this.#server = createServer((req, res) => {
      void this.#handle(req, res).catch((err: unknown) => res.writeHead(500).end(String(err)));
    });
  }

  /** Starts the fake on a free loopback port. */
  static async start(): Promise<FakeKick> {
    const fake = new FakeKick();
    await new Promise<void>((resolve) => fake.#server.listen(0, "127.0.0.1", resolve));
    return fake;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }
  get apiUrl(): string {
    return `http://127.0.0.1:${this.port}/public/v1`;
  }
  get tokenUrl(): string {
    return `http://127.0.0.1:${this.port}/oauth/token`;
  }
  get authorizeUrl(): string {
    return `http://127.0.0.1:${this.port}/oauth/authorize`;
  }
  get broadcasterId(): string {
    return String((apiFixtures.users as { data: { user_id: number }[] }).data[0]?.user_id);
  }

  /** The `OVATION_KICK_*` settings that point a server at this fake. */
  serverEnv(): Record<string, string> {
    return {
      OVATION_KICK_CLIENT_ID: this.clientId,
      OVATION_KICK_CLIENT_SECRET: this.clientSecret,
      OVATION_KICK_REFRESH_TOKEN: this.refreshToken,
      OVATION_KICK_API_URL: this.apiUrl,
      OVATION_KICK_TOKEN_URL: this.tokenUrl,
      OVATION_KICK_SEND_GAP_MS: "0",
    };
  }

  /** Every access token issued so far stops working (the next call gets 401 and must refresh). */
  expireAccessTokens(): void {
    this.#access.clear();
  }

  /** The user revoked the app: refresh tokens and access tokens are refused from now on. */
  revoke(): void {
    this.#revoked = true;
    this.#access.clear();
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake");
    this.requests.push(`${req.method ?? "GET"} ${url.pathname}`);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const send = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
    };
    if (url.pathname === "/oauth/authorize") return this.#authorize(url, res);
    if (url.pathname === "/oauth/token" && req.method === "POST") return this.#token(new URLSearchParams(raw), send);
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
    const user = this.#access.has(bearer);
    const app = this.#app.has(bearer);
    if (!user && !app) return send(401, apiFixtures.unauthorized);
    const route = `${req.method ?? "GET"} ${url.pathname.replace(/^\/public\/v1/, "")}`;
    switch (route) {
      case "GET /users":
        return user ? send(200, apiFixtures.users) : send(401, apiFixtures.unauthorized);
      case "GET /public-key":
        if (!app) return send(401, apiFixtures.unauthorized);
        return send(200, { data: { public_key: this.publicKeyPem }, message: "OK" });
      case "POST /events/subscriptions": {
        const body = JSON.parse(raw) as { broadcaster_user_id: number; events: { name: string; version: number }[]; method: string };
        if (body.method !== "webhook") return send(400, { message: "method must be webhook" });
        const data = body.events.map((e) => {
          this.subscriptions.push({ ...e, broadcaster_user_id: body.broadcaster_user_id });
          return { name: e.name, version: e.version, subscription_id: `01KSUB${randomUUID().slice(0, 8).toUpperCase()}` };
        });
        return send(200, { data, message: "OK" });
      }
      case "POST /chat": {
        if (!user) return send(401, apiFixtures.unauthorized);
        if (this.rateLimitNext > 0) {
          this.rateLimitNext--;
          return send(429, apiFixtures.rateLimited, { "retry-after": String(this.retryAfterSeconds), "x-ratelimit-remaining": "0" });
        }
        const body = JSON.parse(raw) as SentChat;
        if (typeof body.content !== "string" || body.content.length === 0 || body.content.length > 500) return send(400, { message: "content must be 1 to 500 characters" });
        this.sent.push(body);
        return send(200, apiFixtures.chatSent);
      }
      default:
        return send(404, { message: `no route ${route}` });
    }
  }

  #authorize(url: URL, res: ServerResponse): void {
    const redirect = url.searchParams.get("redirect_uri");
    const challenge = url.searchParams.get("code_challenge");
    if (url.searchParams.get("client_id") !== this.clientId || !redirect || !challenge || url.searchParams.get("code_challenge_method") !== "S256") {
      res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: "Invalid request" }));
      return;
    }
    const code = `code-${randomUUID()}`;
    this.#codes.set(code, { challenge, redirectUri: redirect });
    const to = new URL(redirect);
    to.searchParams.set("code", code);
    to.searchParams.set("state", url.searchParams.get("state") ?? "");
    res.writeHead(302, { location: to.href }).end();
  }

  #token(form: URLSearchParams, send: (status: number, body: unknown) => void): void {
    if (form.get("client_id") !== this.clientId || form.get("client_secret") !== this.clientSecret) return send(401, { error: "invalid_client" });
    const grant = form.get("grant_type");
    if (grant === "client_credentials") {
      const token = `kick-app-${randomUUID()}`;
      this.#app.add(token);
      return send(200, { ...apiFixtures.appToken, access_token: token });
    }
    if (grant === "authorization_code") {
      const entry = this.#codes.get(form.get("code") ?? "");
      this.#codes.delete(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      if (!entry || entry.redirectUri !== form.get("redirect_uri") || createHash("sha256").update(verifier).digest("base64url") !== entry.challenge) return send(400, apiFixtures.invalidGrant);
      return send(200, this.#issue());
    }
    if (grant === "refresh_token") {
      if (this.#revoked || form.get("refresh_token") !== this.refreshToken) return send(400, apiFixtures.invalidGrant);
      this.refreshes++;
      return send(200, this.#issue());
    }
    return send(400, { error: "unsupported_grant_type" });
  }

  #issue(): Json {
    const access = `kick-access-${randomUUID()}`;
    this.#access.add(access);
    this.refreshToken = `kick-refresh-${randomUUID()}`;
    return { ...apiFixtures.token, access_token: access, refresh_token: this.refreshToken, expires_in: this.accessTokenLifetime };
  }
}
