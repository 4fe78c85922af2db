import { createHmac, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { SIGNATURE_HEADER } from "./wire.js";
import type { HookChatEvent } from "./wire.js";

/** One HookChat account. */
export interface HookChatAccount {
  id: string;
  name: string;
}

/**
 * HookChat, a made-up platform, on loopback: OAuth authorize (auto-approved as `nextAccount`) and
 * token (code and refresh grants), `GET /me`, `POST /subscriptions` (where webhooks go is set on the
 * app: `webhookUrl`), `POST /chat`; and it delivers signed webhooks (`deliver`).
 */
export class HookChatServer {
  readonly clientId = "hookchat-app";
  readonly clientSecret = "hookchat-secret";
  readonly accounts: HookChatAccount[] = [];
  nextAccount = "";
  webhookUrl = "";
  /** Messages posted with POST /chat: broadcaster and text. */
  readonly sent: { broadcaster_id: string; text: string }[] = [];
  readonly subscriptions: string[] = [];
  readonly #tokens = new Map<string, string>();
  readonly #refresh = new Map<string, string>();
  readonly #codes = new Map<string, string>();
  readonly #server: Server;

  private constructor() {
    this.#server = createServer((req, res) => void this.#handle(req, res).catch((err: unknown) => res.writeHead(500).end(String(err))));
  }

  static async start(): Promise<HookChatServer> {
    const fake = new HookChatServer();
    await new Promise<void>((resolve) => fake.#server.listen(0, "127.0.0.1", resolve));
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** Signs and POSTs an event to the app's webhook URL; resolves with the HTTP status. */
  async deliver(event: HookChatEvent): Promise<number> {
    const body = JSON.stringify(event);
    const signature = createHmac("sha256", this.clientSecret).update(body, "utf8").digest("hex");
    const answer = await fetch(this.webhookUrl, { method: "POST", headers: { "content-type": "application/json", [SIGNATURE_HEADER]: signature }, body, signal: AbortSignal.timeout(10_000) });
    await answer.arrayBuffer();
    return answer.status;
  }

  /** Every token of the account stops working (the streamer removed the app). */
  revoke(accountId: string): void {
    for (const [token, owner] of this.#tokens) if (owner === accountId) this.#tokens.delete(token);
    for (const [token, owner] of this.#refresh) if (owner === accountId) this.#refresh.delete(token);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #issue(owner: string): Record<string, unknown> {
    const access = `hc-access-${randomUUID()}`;
    const refresh = `hc-refresh-${randomUUID()}`;
    this.#tokens.set(access, owner);
    this.#refresh.set(refresh, owner);
    return { access_token: access, refresh_token: refresh, expires_in: 3600, scope: "chat events", token_type: "bearer" };
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", this.url);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const send = (status: number, body: unknown): void => void res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (url.pathname === "/oauth/authorize") {
      const code = `code-${randomUUID()}`;
      this.#codes.set(code, this.nextAccount);
      const to = new URL(url.searchParams.get("redirect_uri") ?? "");
      to.searchParams.set("code", code);
      to.searchParams.set("state", url.searchParams.get("state") ?? "");
      res.writeHead(302, { location: to.href }).end();
      return;
    }
    if (url.pathname === "/oauth/token") {
      const form = new URLSearchParams(raw);
      if (form.get("client_id") !== this.clientId || form.get("client_secret") !== this.clientSecret) return send(401, { error: "invalid_client" });
      const owner = form.get("grant_type") === "authorization_code" ? this.#codes.get(form.get("code") ?? "") : this.#refresh.get(form.get("refresh_token") ?? "");
      if (owner === undefined) return send(400, { error: "invalid_grant" });
      this.#codes.delete(form.get("code") ?? "");
      this.#refresh.delete(form.get("refresh_token") ?? "");
      return send(200, this.#issue(owner));
    }
    const owner = this.#tokens.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));
    if (owner === undefined) return send(401, { error: "unauthorized" });
    const body = raw === "" ? {} : (JSON.parse(raw) as { broadcaster_id?: string; text?: string });
    if (url.pathname === "/me") {
      const account = this.accounts.find((a) => a.id === owner);
      return send(200, { data: { id: owner, name: account?.name ?? owner } });
    }
    if (body.broadcaster_id !== owner) return send(403, { error: "not your channel" });
    if (url.pathname === "/subscriptions") {
      this.subscriptions.push(owner);
      return send(200, { status: "subscribed" });
    }
    if (url.pathname === "/chat") {
      this.sent.push({ broadcaster_id: owner, text: String(body.text) });
      return send(200, { status: "sent" });
    }
    send(404, { error: "not found" });
  }
}
