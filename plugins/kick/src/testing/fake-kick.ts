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

/** One Kick account of the fake: its user and its current (rotating) refresh token. */
export interface FakeKickAccount {
  user_id: number;
  name: string;
  refreshToken: string;
  revoked: boolean;
}

/**
 * A fake of Kick's OAuth server (id.kick.com) and public API (api.kick.com/public/v1) on 127.0.0.1,
 * answering the real JSON shapes (fixtures/kick/api-responses.json): authorize (auto-approved) and
 * token with PKCE S256, refresh (rotating the refresh token), client credentials; GET /users,
 * POST /events/subscriptions, POST /chat (with scripted 429s carrying Retry-After), GET /public-key.
 * Several accounts: {@link addAccount}; the authorize step signs in as {@link nextAccount}, and every
 * token acts for the account it was issued to.
 */
export class FakeKick {
  readonly clientId = "01KFAKECLIENT";
  readonly clientSecret = "fake-kick-secret";
  /** The accounts, the first one being the recorded fixture's user. */
  readonly accounts: FakeKickAccount[] = [];
  /** The account the next authorize step signs in as (its user id; default the first account). */
  nextAccount: number | null = null;
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
  readonly #access = new Map<string, number>();
  readonly #app = new Set<string>();
  readonly #codes = new Map<string, { challenge: string; redirectUri: string; account: number }>();

  private constructor() {
    const fixture = (apiFixtures.users as { data: { user_id: number; name: string }[] }).data[0];
    this.accounts.push({ user_id: fixture?.user_id ?? 123456789, name: fixture?.name ?? "KickStreamer", refreshToken: "kick-refresh-1", revoked: false });
    this.#server = createServer((req, res) => {
      void this.#handle(req, res).catch((err: unknown) => res.writeHead(500).end(String(err)));
    });
    // Real platforms keep an idle connection open for a minute or more; Node's 5 s default closes one
    // the nodes are reusing when this (test) process stalls past it, losing the request on it.
    this.#server.keepAliveTimeout = 65_000;
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
    return String(this.accounts[0]?.user_id);
  }

  /** The refresh token the first account's link holds now (it rotates on every refresh). */
  get refreshToken(): string {
    return this.accounts[0]?.refreshToken ?? "";
  }
  set refreshToken(value: string) {
    if (this.accounts[0]) this.accounts[0].refreshToken = value;
  }

  /** Adds a Kick account (a streamer); returns it. */
  addAccount(user_id: number, name: string): FakeKickAccount {
    const account = { user_id, name, refreshToken: `kick-refresh-${user_id}-1`, revoked: false };
    this.accounts.push(account);
    return account;
  }

  #account(userId: number): FakeKickAccount {
    const account = this.accounts.find((a) => a.user_id === userId);
    if (!account) throw new Error(`no fake Kick account ${userId}`);
    return account;
  }

  /** The `OVATION_KICK_*` settings that point a server at this fake. */
  serverEnv(): Record<string, string> {
    return {
      OVATION_KICK_CLIENT_ID: this.clientId,
      OVATION_KICK_CLIENT_SECRET: this.clientSecret,
      OVATION_KICK_API_URL: this.apiUrl,
      OVATION_KICK_TOKEN_URL: this.tokenUrl,
      OVATION_KICK_SEND_GAP_MS: "0",
    };
  }

  /** Every access token issued so far stops working (the next call gets 401 and must refresh). */
  expireAccessTokens(): void {
    this.#access.clear();
  }

  /** The user revoked the app (the first account, or the one named): its tokens are refused from now on. */
  revoke(userId?: number): void {
    const account = userId === undefined ? this.accounts[0] : this.#account(userId);
    if (!account) return;
    account.revoked = true;
    for (const [token, owner] of this.#access) if (owner === account.user_id) this.#access.delete(token);
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
    const owner = this.#access.get(bearer);
    const user = owner !== undefined;
    const app = this.#app.has(bearer);
    if (!user && !app) return send(401, apiFixtures.unauthorized);
    const route = `${req.method ?? "GET"} ${url.pathname.replace(/^\/public\/v1/, "")}`;
    switch (route) {
      case "GET /users":
        if (owner === undefined) return send(401, apiFixtures.unauthorized);
        {
          const account = this.#account(owner);
          const base = (apiFixtures.users as { data: Json[] }).data[0] ?? {};
          return send(200, { ...apiFixtures.users, data: [{ ...base, user_id: account.user_id, name: account.name }] });
        }
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
        // A user token sends to its own channel only.
        if (body.type === "user" && body.broadcaster_user_id !== owner) return send(403, { message: "Forbidden" });
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
    this.#codes.set(code, { challenge, redirectUri: redirect, account: this.nextAccount ?? this.accounts[0]?.user_id ?? 0 });
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
      return send(200, this.#issue(this.#account(entry.account)));
    }
    if (grant === "refresh_token") {
      const account = this.accounts.find((a) => a.refreshToken === form.get("refresh_token"));
      if (!account || account.revoked) return send(400, apiFixtures.invalidGrant);
      this.refreshes++;
      return send(200, this.#issue(account));
    }
    return send(400, { error: "unsupported_grant_type" });
  }

  #issue(account: FakeKickAccount): Json {
    const access = `kick-access-${randomUUID()}`;
    this.#access.set(access, account.user_id);
    account.refreshToken = `kick-refresh-${randomUUID()}`;
    return { ...apiFixtures.token, access_token: access, refresh_token: account.refreshToken, expires_in: this.accessTokenLifetime };
  }
}
