import type { ChatEvent, OutgoingMessage, PlatformPlugin, PluginContext } from "@ovation/core";
import { afterAll, beforeAll } from "vitest";
import type { BuildAppOptions, OvationApp } from "../../app.js";
import { bearer, seedUser, tempDataDir, testApp } from "../helpers.js";
import type { SeededUser } from "../helpers.js";
import { listen, waitFor } from "../socket-helpers.js";

/** The scopes a client of the reference asks for in these examples. */
export const COMPAT_SCOPES = ["alerts:manage", "chatbot:manage:commands", "chatbot:read", "chatbot:manage", "user:read"];

/** A server on loopback with one user (linked to a Twitch account) whose token has {@link COMPAT_SCOPES}. */
export interface CompatServer {
  app: OvationApp;
  url: string;
  user: SeededUser;
  /** The user's Twitch id from the linked connection. */
  twitchId: string;
  /** Sends a documented request over real HTTP, as a client of the reference would (JSON, bearer token). */
  send(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: unknown; headers: Headers }>;
}

/** Starts a {@link CompatServer} for a test file (before/after all). Read its fields inside tests. */
export function useCompatServer(options: Partial<BuildAppOptions> = {}): CompatServer {
  const data = tempDataDir();
  const server = { twitchId: "106415581" } as CompatServer;
  beforeAll(async () => {
    server.app = await testApp(data.dir, {}, options);
    server.user = seedUser(server.app, "Ghost", COMPAT_SCOPES);
    server.app.ovation.repos.connections.upsert({ user_id: server.user.userId, platform: "twitch", platform_user_id: server.twitchId, username: "ghostzero" });
    server.url = await listen(server.app);
    server.send = async (method, path, body, token = server.user.token) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { ...bearer(token), ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: text === "" ? null : (JSON.parse(text) as unknown), headers: res.headers };
    };
  });
  afterAll(async () => {
    await server.app?.close();
    data.remove();
  });
  return server;
}

/** A chat platform driven by the test (platform `kick`, room `room-1`): the first user's channel; it records what the bot sends. */
export class ChatProbe implements PlatformPlugin {
  readonly metadata = { name: "probe", platform: "kick", version: "1.0.0", core: "^0.1.0" };
  readonly capabilities = { send: ["say" as const, "reply" as const], moderation: { deleteMessage: false, timeout: false } };
  context: PluginContext | null = null;
  readonly sent: OutgoingMessage[] = [];
  channels() {
    return [{ id: "1", platform_id: "room-1", username: "ghost", avatar_url: "" }];
  }
  async connect(context: PluginContext) {
    this.context = context;
  }
  async disconnect() {}
  async send(message: OutgoingMessage) {
    this.sent.push(message);
  }
  /** A chat message from a viewer (or a moderator) of the channel. */
  event(id: string, message: string, moderator = false): ChatEvent {
    return {
      id,
      type: "message",
      timestamp: 1_700_000_000_000,
      platform: "kick",
      user: { platform_id: moderator ? "mod-1" : "viewer-1", username: moderator ? "mod" : "viewer", avatar_url: "", color: null, badges: moderator ? [{ type: "moderator", text: null, id: "moderator", count: null }] : [] },
      channel: this.channels()[0] as ChatEvent["channel"],
      message,
      fragments: [{ type: "text", text: message }],
      parent: null,
      attributes: { edited: false, accent: null, action: false, highlight: false },
    };
  }
  /** Types `message` into chat and resolves with the bot's answer. */
  async say(id: string, message: string, moderator = false): Promise<string | null> {
    const before = this.sent.length;
    if (this.context?.emitChat(this.event(id, message, moderator)).accepted !== true) throw new Error(`${message} was refused`);
    await waitFor(() => this.sent.length > before, 10_000, `an answer to ${message}`);
    return this.sent[this.sent.length - 1]?.text ?? null;
  }
}
