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

/** A poll as Helix answers it (Create Poll, End Poll, Get Polls). */
export interface HelixPoll {
  id: string;
  broadcaster_id: string;
  broadcaster_name: string;
  broadcaster_login: string;
  title: string;
  choices: { id: string; title: string; votes: number; channel_points_votes: number; bits_votes: number }[];
  bits_voting_enabled: boolean;
  bits_per_vote: number;
  channel_points_voting_enabled: boolean;
  channel_points_per_vote: number;
  status: "ACTIVE" | "COMPLETED" | "TERMINATED" | "ARCHIVED" | "MODERATED" | "INVALID";
  duration: number;
  started_at: string;
  ended_at?: string;
}

/** Subscription types Twitch creates only with the broadcaster's own token (or a moderator's, for follows). */
const BROADCASTER_ONLY = new Set(["channel.subscribe", "channel.subscription.gift", "channel.subscription.message", "channel.cheer", "channel.channel_points_custom_reward_redemption.add"]);

/**
 * A Helix + OAuth stub over real HTTP on loopback: users, channels, EventSub subscriptions,
 * announcements, message deletion, bans, shoutouts (with Twitch's 2 min / 60 min limits) and polls
 * (votes cast with {@link vote}); and id.twitch.tv's `/oauth2/authorize` (auto-approved as
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
  /** What each user's channel streams (`GET /channels`), by user id; users without an entry stream "Just Chatting". */
  readonly channelInfo = new Map<string, { game_name: string; title: string }>([["12345678", { game_name: "Chess", title: "Chess all day" }]]);
  /** Shoutouts given (`POST /chat/shoutouts`), oldest first. */
  readonly shoutouts: { from: string; to: string; moderator: string; at: number }[] = [];
  /** Polls by id, in Helix's wire shape. */
  readonly polls = new Map<string, HelixPoll>();
  /** Clock of the shoutout limits and poll times (tests move it). */
  now: () => number = Date.now;
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
    // Real platforms keep an idle connection open for a minute or more; Node's 5 s default closes one
    // the nodes are reusing when this (test) process stalls past it, losing the request on it.
    server.keepAliveTimeout = 65_000;
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

  /** Casts `count` votes for choice `index` (0-based) of an active poll, as viewers on Twitch would. */
  vote(pollId: string, index: number, count = 1): void {
    const choice = this.polls.get(pollId)?.choices[index];
    if (!choice || this.polls.get(pollId)?.status !== "ACTIVE") throw new Error(`fake Helix: no active poll ${pollId} with choice ${index}`);
    choice.votes += count;
  }

  /** Revokes every token of a user (the streamer disconnected the app on twitch.tv). */
  revokeUser(login: string): void {
    const id = this.idOf(login);
    for (const [token, owner] of this.tokenOwners) if (owner.userId === id) this.validTokens.delete(token);
    for (const [refresh, owner] of this.#refreshOwners) if (owner.userId === id) this.#refreshOwners.delete(refresh);
  }

  /** Issues a user token of a login with those scopes, as a finished authorize step would (tests that link many channels at once). */
  issueTokens(login: string, scopes: readonly string[]): { access_token: string; refresh_token: string; expires_in: number } {
    return this.#issue({ userId: this.idOf(login), scopes: [...scopes] });
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

  /** The user id and scopes of a token; tokens set up by hand act as the bot with every scope. */
  #owner(token: string): { userId: string; scopes: string[] | null } {
    const owner = this.tokenOwners.get(token);
    return owner ? { userId: owner.userId, scopes: owner.scopes } : { userId: "999", scopes: null };
  }

  /** Send a Shoutout: the moderator must be the token's user with the scope; 2 min per channel, 60 min per target. */
  #shoutout(call: HelixCall, token: string, json: (status: number, body?: unknown) => void): void {
    const from = call.query.get("from_broadcaster_id") ?? "";
    const to = call.query.get("to_broadcaster_id") ?? "";
    const moderator = call.query.get("moderator_id") ?? "";
    const owner = this.#owner(token);
    if (!from || !to || !moderator) return json(400, { error: "Bad Request", status: 400, message: "Missing required parameter" });
    if (owner.userId !== moderator) return json(401, { error: "Unauthorized", status: 401, message: "The ID in moderator_id must match the user ID in the access token." });
    if (owner.scopes && !owner.scopes.includes("moderator:manage:shoutouts")) return json(401, { error: "Unauthorized", status: 401, message: "Missing scope: moderator:manage:shoutouts." });
    if (from === to) return json(400, { error: "Bad Request", status: 400, message: "The broadcaster may not give themselves a Shoutout." });
    const now = this.now();
    const mine = this.shoutouts.filter((s) => s.from === from);
    if (mine.some((s) => now - s.at < 2 * 60_000)) return json(429, { error: "Too Many Requests", status: 429, message: "The broadcaster may not send a Shoutout more than once every 2 minutes." });
    if (mine.some((s) => s.to === to && now - s.at < 60 * 60_000)) {
      return json(429, { error: "Too Many Requests", status: 429, message: "The broadcaster may not send a Shoutout to the same broadcaster more than once within 60 minutes." });
    }
    this.shoutouts.push({ from, to, moderator, at: now });
    json(204);
  }

  /** Create, End and Get Polls, in Helix's shapes; only the broadcaster's own token with channel:manage:polls (or channel:read:polls to read). */
  #poll(call: HelixCall, token: string, json: (status: number, body?: unknown) => void): void {
    const body = (call.body ?? {}) as { broadcaster_id?: unknown; title?: unknown; choices?: unknown; duration?: unknown; id?: unknown; status?: unknown };
    const broadcaster = String(call.method === "GET" ? (call.query.get("broadcaster_id") ?? "") : (body.broadcaster_id ?? ""));
    const owner = this.#owner(token);
    if (owner.userId !== broadcaster) return json(401, { error: "Unauthorized", status: 401, message: "The ID in broadcaster_id must match the user ID found in the request's OAuth token." });
    if (owner.scopes && !owner.scopes.includes("channel:manage:polls") && !(call.method === "GET" && owner.scopes.includes("channel:read:polls"))) {
      return json(401, { error: "Unauthorized", status: 401, message: "Missing scope: channel:manage:polls." });
    }
    const user = [...this.users.values()].find((u) => u.id === broadcaster);
    const now = this.now();
    for (const poll of this.polls.values()) {
      if (poll.status === "ACTIVE" && Date.parse(poll.started_at) + poll.duration * 1000 <= now) {
        poll.status = "COMPLETED";
        poll.ended_at = new Date(now).toISOString();
      }
    }
    if (call.method === "GET") {
      const ids = call.query.getAll("id");
      const polls = [...this.polls.values()].filter((p) => p.broadcaster_id === broadcaster && (ids.length === 0 || ids.includes(p.id)));
      return json(200, { data: polls, pagination: {} });
    }
    if (call.method === "PATCH") {
      const poll = typeof body.id === "string" ? this.polls.get(body.id) : undefined;
      if (!poll || poll.broadcaster_id !== broadcaster) return json(404, { error: "Not Found", status: 404, message: "poll not found" });
      if (body.status !== "TERMINATED" && body.status !== "ARCHIVED") return json(400, { error: "Bad Request", status: 400, message: "The value in the status field is not valid." });
      if (poll.status !== "ACTIVE") return json(400, { error: "Bad Request", status: 400, message: "The poll must be active to end it." });
      poll.status = body.status;
      poll.ended_at = new Date(now).toISOString();
      return json(200, { data: [poll] });
    }
    const choices = Array.isArray(body.choices) ? body.choices.map((c: unknown) => String((c as { title?: unknown } | null)?.title ?? "")) : [];
    const duration = typeof body.duration === "number" ? body.duration : 0;
    if (typeof body.title !== "string" || body.title.length < 1 || body.title.length > 60 || choices.length < 2 || choices.length > 5 || choices.some((c) => c.length < 1 || c.length > 25) || duration < 15 || duration > 1800) {
      return json(400, { error: "Bad Request", status: 400, message: "The title, choices or duration is not valid." });
    }
    if ([...this.polls.values()].some((p) => p.broadcaster_id === broadcaster && p.status === "ACTIVE")) {
      return json(400, { error: "Bad Request", status: 400, message: "The broadcaster already has a poll that's running." });
    }
    const id = `poll-${this.polls.size + 1}-${broadcaster}`;
    const poll: HelixPoll = {
      id,
      broadcaster_id: broadcaster,
      broadcaster_name: user?.display_name ?? "",
      broadcaster_login: user?.login ?? "",
      title: body.title,
      choices: choices.map((title, i) => ({ id: `${id}-choice-${i + 1}`, title, votes: 0, channel_points_votes: 0, bits_votes: 0 })),
      bits_voting_enabled: false,
      bits_per_vote: 0,
      channel_points_voting_enabled: false,
      channel_points_per_vote: 0,
      status: "ACTIVE",
      duration,
      started_at: new Date(now).toISOString(),
    };
    this.polls.set(id, poll);
    json(200, { data: [poll] });
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
        const user = [...this.users.values()].find((u) => u.id === id);
        const info = id === null ? undefined : (this.channelInfo.get(id) ?? { game_name: "Just Chatting", title: `${user?.display_name ?? ""} live` });
        json(200, {
          data: user && info
            ? [{ broadcaster_id: user.id, broadcaster_login: user.login, broadcaster_name: user.display_name, broadcaster_language: "en", game_id: "509658", game_name: info.game_name, title: info.title, delay: 0, tags: [], content_classification_labels: [], is_branded_content: false }]
            : [],
        });
        return;
      }
      case "POST /chat/shoutouts":
        this.#shoutout(call, token, json);
        return;
      case "POST /polls":
      case "PATCH /polls":
      case "GET /polls":
        this.#poll(call, token, json);
        return;
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
