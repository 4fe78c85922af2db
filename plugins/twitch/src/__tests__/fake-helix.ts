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

const USERS: Record<string, { id: string; login: string; display_name: string }> = {
  dallas: { id: "12345678", login: "dallas", display_name: "Dallas" },
  ovationbot: { id: "999", login: "ovationbot", display_name: "OvationBot" },
};

/**
 * A Helix + OAuth token endpoint stub over real HTTP on loopback: users, channels, EventSub
 * subscriptions, announcements, message deletion, bans, and `grant_type=refresh_token`. Tokens not
 * in `validTokens` get Twitch's 401 body; `forbiddenTypes` answers 403 for those subscription types.
 */
export class FakeHelix {
  readonly calls: HelixCall[] = [];
  readonly validTokens = new Set<string>(["good-token"]);
  refreshToken = "refresh-1";
  refreshCount = 0;
  forbiddenTypes = new Set<string>();
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
    if (url.pathname === "/oauth2/token" && req.method === "POST") {
      const form = new URLSearchParams(text);
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
        const users = logins.length === 0 ? [USERS.ovationbot] : logins.map((l) => USERS[l]).filter(Boolean);
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
        if (this.forbiddenTypes.has(body.type)) {
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
