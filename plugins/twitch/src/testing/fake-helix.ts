import { once } from "node:events";
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the Helix stub received. */
export interface HelixCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  token: string | null;
  clientId: string | null;
}

/** Subscription types Twitch creates only with the broadcaster's own token (or a moderator's, for follows). */
const BROADCASTER_ONLY = new Set(["channel.subscribe", "channel.subscription.gift", "channel.subscription.message", "channel.cheer", "channel.channel_points_custom_reward_redemption.add"]);

/**
 * A Helix + OAuth stub over real HTTP on loopback: users, channels, EventSub subscriptions,
 * announcements, message deletion, bans; and id.twitch.tv's `/oauth2/authorize` (auto-approved as
 * {@link nextUser}), `/oauth2/token` (code and refresh grants) and `/oauth2/validate`. Tokens not
 * in `validTokens` get Twitch's 401 body; `forbiddenTypes` answers 403 for those subscription types;
 * a broadcaster-only type asked with another issued user's token is refused 403, as Twitch does.
 */
export class FakeHelix {
  readonly calls: HelixCall[] = [];
  readonly validTokens = new Set<string>(["good-token"]);
  refreshToken = "refresh-1";
  refreshCount = 0;
  forbiddenTypes = new Set<string>();
  /** Twitch users by login. */
  readonly users = new Map<string, { id: string; login: string; display_name: string }>([
    ["dallas", { id: "12345678", login: "dallas", display_name: "Dallas" }],
    ["ovationbot", { id: "999", login: "ovationbot", display_name: "OvationBot" }],
  ]);
  /** Whose each token is and what it may do (tokens without an entry act as the bot, all scopes). */
  readonly tokenOwners = new Map<string, { userId: string; scopes: string[] }>();
  /** The user the next authorize step signs in as (a login; default dallas). */
  nextUser = "dallas";
  /** `/oauth2/validate` calls per token. */
  readonly validations: string[] = [];
  readonly #refreshOwners = new Map<string, { userId: string; scopes: string[] }>();
  readonly #codes = new Map<string, { userId: string; scopes: string[] }>();
  #issued = 0;
  readonly #server: Server;

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(): Promise<FakeHelix> {
    const server = createServer();
    const helix = new FakeHelix(server);
    server.on("request", (req, res) => void helix.#handle(req, res));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    return helix;
  }

  get base(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** Adds a Twitch user. */
  addUser(login: string, id: string): void {
    this.users.set(login, { id, login, display_name: login.charAt(0).toUpperCase() + login.slice(1) });
  }

  /** The user id of a login. */
  idOf(login: string): string {
    const user = this.users.get(login);
    if (!user) throw new Error(`fake Helix: no user ${login}`);
    return user.id;
  }

  /** Revokes every token of a user (the streamer disconnected the app on twitch.tv). */
  revokeUser(login: string): void {
    const id = this.idOf(login);
    for (const [token, owner] of this.tokenOwners) if (owner.userId === id) this.validTokens.delete(token);
    for (const [refresh, owner] of this.#refreshOwners) if (owner.userId === id) this.#refreshOwners.delete(refresh);
  }

  #issue(owner: { userId: string; scopes: string[] }): { access_token: string; refresh_token: string; expires_in: number; scope: string[]; token_type: string } {
    this.#issued++;
    const access = `user-token-${owner.userId}-${this.#issued}`;
    const refresh = `user-refresh-${owner.userId}-${this.#issued}`;
    this.validTokens.add(access);
    this.tokenOwners.set(access, owner);
    this.#refreshOwners.set(refresh, owner);
    return { access_token: access, refresh_token: refresh, expires_in: 14400, scope: owner.scopes, token_type: "bearer" };
  }

  /** Calls to `method path`. */
  of(method: string, path: string): HelixCall[] {
    return this.calls.filter((c) => c.method === method && c.path === path);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", this.base);
    const json = (status: number, body?: unknown) => {
      res.writeHead(status, body === undefined ? {} : { "content-type": "application/json" });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    if (url.pathname === "/oauth2/authorize") {
      const redirect = url.searchParams.get("redirect_uri");
      if (!redirect) return json(400, { status: 400, message: "missing redirect_uri" });
      const code = `code-${++this.#issued}`;
      this.#codes.set(code, { userId: this.idOf(this.nextUser), scopes: (url.searchParams.get("scope") ?? "").split(" ").filter(Boolean) });
      const to = new URL(redirect);
      to.searchParams.set("code", code);
      to.searchParams.set("state", url.searchParams.get("state") ?? "");
      res.writeHead(302, { location: to.href }).end();
      return;
    }
    if (url.pathname === "/oauth2/validate") {
      const token = (req.headers.authorization ?? "").replace(/^OAuth /, "");
      this.validations.push(token);
      if (!this.validTokens.has(token)) return json(401, { status: 401, message: "invalid access token" });
      const owner = this.tokenOwners.get(token) ?? { userId: "999", scopes: [] };
      const login = [...this.users.values()].find((u) => u.id === owner.userId)?.login ?? "";
      return json(200, { client_id: "fake-client", login, scopes: owner.scopes, user_id: owner.userId, expires_in: 14000 });
    }
    if (url.pathname === "/oauth2/token" && req.method === "POST") {
      const form = new URLSearchParams(text);
      if (form.get("grant_type") === "authorization_code") {
        const owner = this.#codes.get(form.get("code") ?? "");
        this.#codes.delete(form.get("code") ?? "");
        if (!owner) return json(400, { status: 400, message: "Invalid authorization code" });
        return json(200, this.#issue(owner));
      }
      const owner = form.get("grant_type") === "refresh_token" ? this.#refreshOwners.get(form.get("refresh_token") ?? "") : undefined;
      if (owner) {
        this.#refreshOwners.delete(form.get("refresh_token") ?? "");
        this.refreshCount++;
        return json(200, this.#issue(owner));
      }
      if (form.get("grant_type") !== "refresh_token" || form.get("refresh_token") !== this.refreshToken || !form.get("client_secret")) {
        json(400, { status: 400, message: "Invalid refresh token" });
        return;
      }
      this.refreshCount++;
      const access = `fresh-token-${this.refreshCount}`;
      this.validTokens.add(access);
      this.refreshToken = `refresh-${this.refreshCount + 1}`;
      json(200, { access_token: access, refresh_token: this.refreshToken, expires_in: 14400, scope: [], token_type: "bearer" });
      return;
    }
    const token = (req.headers.authorization ?? "").replace(/^Bearer /, "") || null;
    const call: HelixCall = {
      method: req.method ?? "GET",
      path: url.pathname.replace(/^\/helix/, ""),
      query: url.searchParams,
      body: text === "" ? null : (JSON.parse(text) as unknown),
      token,
      clientId: (req.headers["client-id"] as string | undefined) ?? null,
    };
    this.calls.push(call);
    if (!token || !this.validTokens.has(token)) {
      json(401, { error: "Unauthorized", status: 401, message: "Invalid OAuth token" });
      return;
    }
    const key = `${call.method} ${call.path}`;
    switch (key) {
      case "GET /users": {
        const logins = url.searchParams.getAll("login");
        const ids = url.searchParams.getAll("id");
        const self = this.tokenOwners.get(token)?.userId ?? "999";
        const all = [...this.users.values()];
        const users = logins.length > 0 ? logins.map((l) => this.users.get(l)).filter(Boolean) : ids.length > 0 ? all.filter((u) => ids.includes(u.id)) : all.filter((u) => u.id === self);
        json(200, {
          data: users.map((u) => ({ ...u, type: "", broadcaster_type: "partner", description: `about ${u?.login}`, profile_image_url: `https://img.example/${u?.login}.png`, view_count: 0 })),
        });
        return;
      }
      case "GET /channels": {
        const id = url.searchParams.get("broadcaster_id");
        json(200, {
          data: id === "12345678" ? [{ broadcaster_id: id, broadcaster_login: "dallas", broadcaster_name: "Dallas", broadcaster_language: "en", game_name: "Chess", title: "Chess all day" }] : [],
        });
        return;
      }
      case "POST /eventsub/subscriptions": {
        const body = call.body as { type: string; version: string; condition: unknown; transport: unknown };
        // Tokens set up by hand (validTokens) stand for the broadcaster's own; issued ones are checked.
        const owner = this.tokenOwners.get(token)?.userId;
        const broadcaster = (body.condition as { broadcaster_user_id?: string } | null)?.broadcaster_user_id;
        if (this.forbiddenTypes.has(body.type) || (BROADCASTER_ONLY.has(body.type) && owner !== undefined && broadcaster !== owner)) {
          json(403, { error: "Forbidden", status: 403, message: "subscription missing proper authorization" });
          return;
        }
        json(202, { data: [{ id: `sub-${this.calls.length}`, status: "enabled", ...body, cost: 0 }], total: 1, total_cost: 0, max_total_cost: 10000 });
        return;
      }
      case "POST /chat/announcements":
      case "DELETE /moderation/chat":
        json(204);
        return;
      case "POST /moderation/bans": {
        // Like Helix: data.user_id is required; a duration, when given, is 1-1209600 seconds.
        const data = (call.body as { data?: { user_id?: unknown; duration?: unknown } } | null)?.data;
        const duration = data?.duration;
        if (typeof data?.user_id !== "string" || (duration !== undefined && (typeof duration !== "number" || duration < 1 || duration > 1_209_600))) {
          json(400, { error: "Bad Request", status: 400, message: "Missing or invalid data.user_id or data.duration" });
          return;
        }
        json(200, { data: [{ broadcaster_id: url.searchParams.get("broadcaster_id"), moderator_id: url.searchParams.get("moderator_id"), user_id: data.user_id, created_at: "", end_time: duration === undefined ? null : "" }] });
        return;
      }
      default:
        json(404, { error: "Not Found", status: 404, message: `no route ${key}` });
    }
  }
}
