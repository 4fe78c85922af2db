import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { apiFixtures, chatFixtures, errorFixtures } from "./fixtures.js";

type Json = Record<string, unknown>;

/** A scripted failure: the next `times` calls of `route` answer Google's `error` body. */
interface Failure {
  route: string;
  error: string;
  status: number;
  times: number;
  headers: Record<string, string>;
}

/** One YouTube channel of the fake: its own refresh token, live chat, messages and answers. */
export interface FakeYouTubeChannel {
  id: string;
  title: string;
  refreshToken: string;
  liveChatId: string;
  live: boolean;
  messages: Json[];
  inserted: string[];
  revoked: boolean;
}

/**
 * A fake Google OAuth 2.0 + YouTube Data API v3 server on 127.0.0.1, answering the real JSON
 * shapes (fixtures/youtube): token refresh and code exchange, channels.list, liveBroadcasts.list,
 * liveChatMessages list/insert/delete with page tokens and pollingIntervalMillis,
 * subscriptions.list, and Google's error bodies (quotaExceeded, liveChatEnded, 429 rateLimitExceeded,
 * 401 authError, invalid_grant). It counts calls per method and the units they cost. Several
 * channels: {@link addChannel}; the consent step signs in as {@link nextChannel}, and every token
 * acts for its channel (the first channel is the recorded fixture's, used by the single-channel helpers).
 */
export class FakeGoogle {
  readonly clientId = "fake-client.apps.googleusercontent.com";
  readonly clientSecret = "fake-secret";
  /** The channels; the first is the fixture's. */
  readonly channels: FakeYouTubeChannel[] = [];
  /** The channel the next consent step signs in as (its id; default the first). */
  nextChannel: string | null = null;
  /** Calls per Data API method (`liveChatMessages.list`, ...). */
  readonly calls: Record<string, number> = {};
  /** Every request line `METHOD /path?query` (no tokens: those travel in headers/bodies). */
  readonly requests: string[] = [];
  pollingIntervalMillis = 50;
  accessTokenLifetime = 3599;
  chatEnded = false;
  refreshes = 0;
  readonly #server: Server;
  readonly #subscribers: Json[] = [...((apiFixtures.subscribers as { items: Json[] }).items)];
  readonly #validAccess = new Map<string, FakeYouTubeChannel>();
  #failures: Failure[] = [];
  #seq = 0;
  #waiters: (() => void)[] = [];

  private constructor() {
    const owner = (apiFixtures.channelsMine as { items: { id: string; snippet: { title: string } }[] }).items[0];
    this.channels.push({ id: owner?.id ?? "UCowner", title: owner?.snippet.title ?? "FunStreamer", refreshToken: "1//fake-refresh", liveChatId: chatFixtures.liveChatId, live: false, messages: [], inserted: [], revoked: false });
    this.#server = createServer((req, res) => {
      void this.#handle(req, res).catch((err: unknown) => {
        res.writeHead(500).end(String(err));
      });
    });
    // Real platforms keep an idle connection open for a minute or more; Node's 5 s default closes one
    // the nodes are reusing when this (test) process stalls past it, losing the request on it.
    this.#server.keepAliveTimeout = 65_000;
  }

  /** Starts the fake on a free loopback port. */
  static async start(): Promise<FakeGoogle> {
    const fake = new FakeGoogle();
    await new Promise<void>((resolve) => fake.#server.listen(0, "127.0.0.1", resolve));
    return fake;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }
  get apiUrl(): string {
    return `http://127.0.0.1:${this.port}/youtube/v3`;
  }
  get tokenUrl(): string {
    return `http://127.0.0.1:${this.port}/token`;
  }
  get liveChatId(): string {
    return chatFixtures.liveChatId;
  }

  get #primary(): FakeYouTubeChannel {
    return this.channels[0] as FakeYouTubeChannel;
  }

  /** The first channel's refresh token. */
  get refreshToken(): string {
    return this.#primary.refreshToken;
  }
  /** Whether the first channel is live. */
  get live(): boolean {
    return this.#primary.live;
  }
  set live(value: boolean) {
    this.#primary.live = value;
  }
  /** Text of every liveChatMessages.insert into the first channel's chat, in order. */
  get inserted(): string[] {
    return this.#primary.inserted;
  }

  /** Adds a channel (a streamer), live when `live`. */
  addChannel(id: string, title: string, live = false): FakeYouTubeChannel {
    const channel = { id, title, refreshToken: `1//fake-refresh-${id}`, liveChatId: `chat-${id}`, live, messages: [], inserted: [], revoked: false };
    this.channels.push(channel);
    return channel;
  }

  #channel(id: string): FakeYouTubeChannel {
    const channel = this.channels.find((c) => c.id === id);
    if (!channel) throw new Error(`fake Google: no channel ${id}`);
    return channel;
  }

  /**
   * The `OVATION_YOUTUBE_*` settings that point a server at this fake, with a budget large enough
   * that the fake's `pollingIntervalMillis` sets the pace.
   */
  serverEnv(): Record<string, string> {
    return {
      OVATION_YOUTUBE_CLIENT_ID: this.clientId,
      OVATION_YOUTUBE_CLIENT_SECRET: this.clientSecret,
      OVATION_YOUTUBE_API_URL: this.apiUrl,
      OVATION_YOUTUBE_TOKEN_URL: this.tokenUrl,
      OVATION_YOUTUBE_DAILY_QUOTA: "10000000",
    };
  }

  /** Units of the calls made, at Google's published costs. */
  get unitsUsed(): number {
    const cost: Record<string, number> = { "channels.list": 1, "liveBroadcasts.list": 1, "liveChatMessages.list": 5, "liveChatMessages.insert": 20, "liveChatMessages.delete": 50, "subscriptions.list": 1 };
    return Object.entries(this.calls).reduce((sum, [m, n]) => sum + (cost[m] ?? 0) * n, 0);
  }

  /** Adds a chat message (a fixture shape); gives it a fresh id and `publishedAt` unless `keepId`. */
  publish(message: Json, keepId = false): string {
    return this.publishTo(this.#primary.id, message, keepId);
  }

  /** Adds a chat message to a channel's live chat. */
  publishTo(channelId: string, message: Json, keepId = false): string {
    const channel = this.#channel(channelId);
    const copy = structuredClone(message);
    this.#seq++;
    if (!keepId) copy.id = `LCC.fake-${this.#seq}`;
    const snippet = copy.snippet as Json | undefined;
    if (snippet && !keepId) snippet.publishedAt = new Date().toISOString();
    if (snippet && snippet.liveChatId !== undefined) snippet.liveChatId = channel.liveChatId;
    channel.messages.push(copy);
    return String(copy.id);
  }

  /** Ends the chat: a chatEndedEvent, then 403 liveChatEnded on the next page. */
  endChat(): void {
    this.publish(chatFixtures.messages["chat-ended"] as Json);
    this.chatEnded = true;
    this.live = false;
  }

  /** A new subscriber appears first in the list. */
  addSubscriber(sub: Json): void {
    this.#subscribers.unshift(structuredClone(sub));
  }

  /** The refresh token stops working (the user removed the app's access): the first channel's, or the one named. */
  revoke(channelId?: string): void {
    const channel = channelId === undefined ? this.#primary : this.#channel(channelId);
    channel.revoked = true;
    for (const [token, owner] of this.#validAccess) if (owner === channel) this.#validAccess.delete(token);
  }

  /** Makes every access token issued so far invalid (they "expired"). */
  expireAccessTokens(): void {
    this.#validAccess.clear();
  }

  /** The next `times` calls of `route` (a method name like `liveChatMessages.list`) fail with a fixture error. */
  fail(route: string, error: keyof typeof errorFixtures & string, times = 1, headers: Record<string, string> = {}): void {
    const body = errorFixtures[error] as { error: { code?: number } };
    this.#failures.push({ route, error, status: typeof body.error.code === "number" ? body.error.code : 400, times, headers });
  }

  /** Resolves once `predicate` holds (checked after every request), or rejects after `ms`. */
  async waitFor(predicate: () => boolean, ms = 10_000, what = "condition"): Promise<void> {
    const deadline = Date.now() + ms;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`fake Google: timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${this.port}`);
    const body = await new Promise<string>((resolve) => {
      let data = "";
      req.on("data", (chunk: Buffer) => (data += chunk.toString("utf8")));
      req.on("end", () => resolve(data));
    });
    this.requests.push(`${req.method} ${url.pathname}${url.search}`);
    try {
      this.#route(req, res, url, body);
    } finally {
      for (const wake of this.#waiters.splice(0)) wake();
    }
  }

  #send(res: ServerResponse, status: number, json: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { "content-type": "application/json; charset=UTF-8", ...headers }).end(JSON.stringify(json));
  }

  #route(req: IncomingMessage, res: ServerResponse, url: URL, body: string): void {
    if (url.pathname === "/token" && req.method === "POST") return this.#token(res, body);
    if (url.pathname === "/o/oauth2/v2/auth") {
      const redirect = new URL(url.searchParams.get("redirect_uri") ?? "");
      redirect.searchParams.set("code", this.nextChannel === null ? "fake-code" : `fake-code:${this.nextChannel}`);
      redirect.searchParams.set("state", url.searchParams.get("state") ?? "");
      res.writeHead(302, { location: redirect.href }).end();
      return;
    }
    const method = this.#methodOf(req.method ?? "GET", url.pathname);
    if (method === null) return this.#send(res, 404, { error: { code: 404, message: "Not Found", errors: [{ reason: "notFound", domain: "global" }] } });
    this.calls[method] = (this.calls[method] ?? 0) + 1;
    const auth = req.headers.authorization ?? "";
    const mine = auth.startsWith("Bearer ") ? this.#validAccess.get(auth.slice(7)) : undefined;
    if (!mine) return this.#send(res, 401, errorFixtures.authError, { "www-authenticate": 'Bearer realm="https://accounts.google.com/"' });
    const failure = this.#failures.find((f) => f.route === method && f.times > 0);
    if (failure) {
      failure.times--;
      return this.#send(res, failure.status, errorFixtures[failure.error], failure.headers);
    }
    const q = url.searchParams;
    const badRequest = (message: string): void =>
      this.#send(res, 400, { error: { code: 400, message, errors: [{ message, domain: "global", reason: "required" }] } });
    switch (method) {
      case "channels.list":
        if (q.get("mine") !== "true" || !q.get("part")) return badRequest("No filter selected. Expected one of: mine, id, forHandle, forUsername");
        {
          const list = structuredClone(apiFixtures.channelsMine) as { items: { id: string; snippet: { title: string; customUrl?: string } }[] };
          for (const item of list.items) Object.assign(item, { id: mine.id, snippet: { ...item.snippet, title: mine.title, customUrl: `@${mine.title.toLowerCase()}` } });
          return this.#send(res, 200, list);
        }
      case "liveBroadcasts.list":
        if (!q.get("part") || !q.get("broadcastStatus")) return badRequest("Required parameter: part / filter");
        if (!mine.live) return this.#send(res, 200, apiFixtures.noBroadcast);
        {
          const active = structuredClone(apiFixtures.activeBroadcast) as { items: { id: string; snippet: { channelId: string; liveChatId: string } }[] };
          for (const item of active.items) Object.assign(item.snippet, { channelId: mine.id, liveChatId: mine.liveChatId });
          return this.#send(res, 200, active);
        }
      case "subscriptions.list":
        // myRecentSubscribers: newest first (what the plugin asks for); mySubscribers: any order.
        if ((q.get("myRecentSubscribers") !== "true" && q.get("mySubscribers") !== "true") || !q.get("part")) return badRequest("No filter selected");
        return this.#send(res, 200, { kind: "youtube#subscriptionListResponse", etag: "e", pageInfo: { totalResults: this.#subscribers.length, resultsPerPage: 50 }, items: this.#subscribers.slice(0, 50) });
      case "liveChatMessages.list":
        return this.#listChat(res, q, badRequest);
      case "liveChatMessages.insert":
        return this.#insert(res, body);
      case "liveChatMessages.delete":
        res.writeHead(204).end();
        return;
    }
  }

  #methodOf(verb: string, path: string): string | null {
    const p = path.replace(/^\/youtube\/v3\//, "");
    if (p === path) return null;
    if (p === "channels" && verb === "GET") return "channels.list";
    if (p === "liveBroadcasts" && verb === "GET") return "liveBroadcasts.list";
    if (p === "subscriptions" && verb === "GET") return "subscriptions.list";
    if (p === "liveChat/messages") return verb === "GET" ? "liveChatMessages.list" : verb === "POST" ? "liveChatMessages.insert" : verb === "DELETE" ? "liveChatMessages.delete" : null;
    return null;
  }

  #listChat(res: ServerResponse, q: URLSearchParams, badRequest: (m: string) => void): void {
    if (!q.get("part") || !q.get("liveChatId")) return badRequest("Required parameters: liveChatId, part");
    const chat = this.channels.find((c) => c.liveChatId === q.get("liveChatId"));
    if (!chat) return this.#send(res, 404, errorFixtures.liveChatNotFound);
    const token = q.get("pageToken");
    const from = token === null ? 0 : Number(token.replace(/^p/, ""));
    if (this.chatEnded && from >= chat.messages.length) return this.#send(res, 403, errorFixtures.liveChatEnded);
    const items = chat.messages.slice(from, from + 2000);
    this.#send(res, 200, {
      kind: "youtube#liveChatMessageListResponse",
      etag: `e${from}`,
      pollingIntervalMillis: this.pollingIntervalMillis,
      pageInfo: { totalResults: items.length, resultsPerPage: items.length },
      nextPageToken: `p${from + items.length}`,
      ...(this.chatEnded ? { offlineAt: new Date().toISOString() } : {}),
      items,
    });
  }

  #insert(res: ServerResponse, body: string): void {
    let json: { snippet?: { liveChatId?: unknown; type?: unknown; textMessageDetails?: { messageText?: unknown } } };
    try {
      json = JSON.parse(body) as typeof json;
    } catch {
      return this.#send(res, 400, { error: { code: 400, message: "Invalid JSON payload received.", errors: [{ reason: "parseError", domain: "global" }] } });
    }
    const s = json.snippet;
    const text = s?.textMessageDetails?.messageText;
    if (s?.type !== "textMessageEvent" || typeof text !== "string") {
      return this.#send(res, 400, { error: { code: 400, message: "The request metadata is invalid.", errors: [{ reason: "invalidLiveChatMessage", domain: "youtube.liveChat" }] } });
    }
    const chat = this.channels.find((c) => c.liveChatId === s.liveChatId);
    if (!chat) return this.#send(res, 404, errorFixtures.liveChatNotFound);
    if (this.chatEnded) return this.#send(res, 403, errorFixtures.liveChatEnded);
    if (Array.from(text).length > 200) {
      return this.#send(res, 400, { error: { code: 400, message: "The message is too long.", errors: [{ reason: "messageTextTooLong", domain: "youtube.liveChat" }] } });
    }
    chat.inserted.push(text);
    const id = this.publishTo(chat.id, {
      kind: "youtube#liveChatMessage",
      snippet: { type: "textMessageEvent", liveChatId: chat.liveChatId, authorChannelId: chat.id, publishedAt: "", hasDisplayContent: true, displayMessage: text, textMessageDetails: { messageText: text } },
      authorDetails: { channelId: chat.id, displayName: chat.title, profileImageUrl: "", isVerified: false, isChatOwner: true, isChatSponsor: false, isChatModerator: false },
    });
    this.#send(res, 200, { kind: "youtube#liveChatMessage", etag: "ins", id, snippet: { type: "textMessageEvent", liveChatId: chat.liveChatId, publishedAt: new Date().toISOString(), textMessageDetails: { messageText: text } } });
  }

  #token(res: ServerResponse, body: string): void {
    const form = new URLSearchParams(body);
    if (form.get("client_id") !== this.clientId || form.get("client_secret") !== this.clientSecret) {
      return this.#send(res, 401, { error: "invalid_client", error_description: "The OAuth client was not found." });
    }
    const grant = form.get("grant_type");
    const issue = (channel: FakeYouTubeChannel, withRefresh: boolean): void => {
      this.refreshes += withRefresh ? 0 : 1;
      const access = `ya29.fake-${++this.#seq}`;
      this.#validAccess.set(access, channel);
      this.#send(res, 200, {
        access_token: access,
        expires_in: this.accessTokenLifetime,
        scope: "https://www.googleapis.com/auth/youtube.force-ssl https://www.googleapis.com/auth/youtube.readonly",
        token_type: "Bearer",
        ...(withRefresh ? { refresh_token: channel.refreshToken } : {}),
      });
    };
    if (grant === "refresh_token") {
      const channel = this.channels.find((c) => c.refreshToken === form.get("refresh_token"));
      if (!channel || channel.revoked) return this.#send(res, 400, errorFixtures.invalidGrant);
      return issue(channel, false);
    }
    if (grant === "authorization_code") {
      const code = form.get("code") ?? "";
      const channel = code === "fake-code" ? this.#primary : code.startsWith("fake-code:") ? this.channels.find((c) => c.id === code.slice(10)) : undefined;
      if (!channel) return this.#send(res, 400, { error: "invalid_grant", error_description: "Malformed auth code." });
      return issue(channel, true);
    }
    this.#send(res, 400, { error: "unsupported_grant_type", error_description: `Invalid grant_type: ${grant ?? ""}` });
  }
}
