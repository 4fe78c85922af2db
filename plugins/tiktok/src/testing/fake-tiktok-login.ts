import { createHash, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One TikTok account of {@link FakeTikTokLogin}. */
export interface FakeTikTokAccount {
  openId: string;
  displayName: string;
}

/**
 * A loopback fake of TikTok Login Kit v2 for link-flow tests: the authorize page (auto-approved,
 * PKCE S256, `client_key`, comma-separated scopes), `POST /v2/oauth/token/` (form body, TikTok's
 * flat token answer with `open_id`) and `GET /v2/user/info/` (`data.user` with the asked `fields`).
 * The authorize step signs in as {@link nextAccount}. Not for production use.
 */
export class FakeTikTokLogin {
  readonly clientKey = "fake-tiktok-client-key";
  readonly clientSecret = "fake-tiktok-client-secret";
  readonly accounts: FakeTikTokAccount[] = [];
  /** The account the next authorize step signs in as (its open_id; default the first account). */
  nextAccount: string | null = null;
  readonly #codes = new Map<string, { challenge: string; redirectUri: string; openId: string }>();
  readonly #access = new Map<string, string>();
  #server: Server | null = null;
  port = 0;

  static async start(): Promise<FakeTikTokLogin> {
    const fake = new FakeTikTokLogin();
    const server = createServer((req, res) => void fake.#handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    fake.#server = server;
    fake.port = (server.address() as AddressInfo).port;
    return fake;
  }

  addAccount(openId: string, displayName: string): FakeTikTokAccount {
    const account = { openId, displayName };
    this.accounts.push(account);
    return account;
  }

  get authorizeUrl(): string {
    return `http://127.0.0.1:${this.port}/v2/auth/authorize/`;
  }
  get tokenUrl(): string {
    return `http://127.0.0.1:${this.port}/v2/oauth/token/`;
  }
  /** The API base the identity settings' `apiUrl` takes (`/user/info/` is under it). */
  get apiUrl(): string {
    return `http://127.0.0.1:${this.port}/v2`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    };
    const logId = randomUUID().replaceAll("-", "");
    if (url.pathname === "/v2/auth/authorize/" && req.method === "GET") {
      const redirect = url.searchParams.get("redirect_uri");
      const challenge = url.searchParams.get("code_challenge");
      const scopes = (url.searchParams.get("scope") ?? "").split(",");
      if (url.searchParams.get("client_key") !== this.clientKey || !redirect || !challenge || url.searchParams.get("code_challenge_method") !== "S256" || !scopes.includes("user.info.basic")) {
        return send(400, { error: "invalid_request", error_description: "client_key, redirect_uri, scope and an S256 code_challenge are required", log_id: logId });
      }
      const code = `tiktok-code-${randomUUID()}`;
      this.#codes.set(code, { challenge, redirectUri: redirect, openId: this.nextAccount ?? this.accounts[0]?.openId ?? "" });
      const to = new URL(redirect);
      to.searchParams.set("code", code);
      to.searchParams.set("scopes", scopes.join(","));
      to.searchParams.set("state", url.searchParams.get("state") ?? "");
      res.writeHead(302, { location: to.href }).end();
      return;
    }
    if (url.pathname === "/v2/oauth/token/" && req.method === "POST") {
      const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      if (form.get("client_key") !== this.clientKey || form.get("client_secret") !== this.clientSecret) {
        return send(401, { error: "invalid_client", error_description: "Client key or secret is incorrect.", log_id: logId });
      }
      if (form.get("grant_type") !== "authorization_code") return send(400, { error: "unsupported_grant_type", error_description: "grant_type", log_id: logId });
      const code = form.get("code") ?? "";
      const entry = this.#codes.get(code);
      this.#codes.delete(code);
      const verifier = form.get("code_verifier") ?? "";
      if (!entry || entry.redirectUri !== form.get("redirect_uri") || createHash("sha256").update(verifier).digest("base64url") !== entry.challenge) {
        return send(400, { error: "invalid_grant", error_description: "Authorization code is expired.", log_id: logId });
      }
      const access = `act.${randomUUID()}`;
      this.#access.set(access, entry.openId);
      return send(200, { access_token: access, expires_in: 86400, open_id: entry.openId, refresh_expires_in: 31536000, refresh_token: `rft.${randomUUID()}`, scope: "user.info.basic", token_type: "Bearer" });
    }
    if (url.pathname === "/v2/user/info/" && req.method === "GET") {
      const openId = this.#access.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));
      const account = this.accounts.find((a) => a.openId === openId);
      if (!account) return send(401, { error: { code: "access_token_invalid", message: "The access token is invalid or not found in the request.", log_id: logId } });
      const fields = (url.searchParams.get("fields") ?? "").split(",");
      const all: Record<string, string> = { open_id: account.openId, display_name: account.displayName, avatar_url: `https://p16.tiktokcdn.example/${account.openId}.jpeg` };
      const user = Object.fromEntries(Object.entries(all).filter(([field]) => fields.includes(field)));
      return send(200, { data: { user }, error: { code: "ok", message: "", log_id: logId } });
    }
    send(404, { error: { code: "not_found", message: `no route ${req.method ?? ""} ${url.pathname}`, log_id: logId } });
  }
}
