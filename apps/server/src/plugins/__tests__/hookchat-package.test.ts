import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../../__tests__/socket-helpers.js";
import { api } from "../../identity/__tests__/oauth-helpers.js";
import type { PlatformOAuthSettings } from "../../identity/platforms/settings.js";
import { startChannelsServer } from "./channels-harness.js";
import type { ChannelsServer, Streamer } from "./channels-harness.js";

const EXAMPLE = resolve(import.meta.dirname, "../../../../../examples/plugin-hookchat");

/** The example's fake HookChat server, as its package exports it. */
interface HookChatServer {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly url: string;
  accounts: { id: string; name: string }[];
  nextAccount: string;
  webhookUrl: string;
  readonly sent: { broadcaster_id: string; text: string }[];
  readonly subscriptions: string[];
  deliver(event: { id: string; type: "chat" | "follow"; broadcaster_id: string; user: { id: string; name: string }; text?: string }): Promise<number>;
  revoke(accountId: string): void;
  close(): Promise<void>;
}

describe("a packaged third-party OAuth + webhook plugin (examples/plugin-hookchat), loaded by name", () => {
  let hookchat: HookChatServer;
  let server: ChannelsServer;
  let modules: string;
  const streamers: Streamer[] = [];
  const links: { id: number; platform_user_id: string }[] = [];

  beforeAll(async () => {
    execFileSync(process.execPath, [resolve(EXAMPLE, "../../node_modules/typescript/bin/tsc"), "-p", join(EXAMPLE, "tsconfig.json")], { stdio: "inherit" });
    // Installed beside the server, as `npm install ovation-plugin-hookchat` would.
    modules = mkdtempSync(join(tmpdir(), "ovation-hookchat-"));
    mkdirSync(join(modules, "node_modules"));
    symlinkSync(EXAMPLE, join(modules, "node_modules", "ovation-plugin-hookchat"), "dir");
    const fake = (await import(join(EXAMPLE, "dist", "fake-server.js"))) as { HookChatServer: { start(): Promise<HookChatServer> } };
    hookchat = await fake.HookChatServer.start();
    hookchat.accounts.push({ id: "hc-1", name: "HookOne" }, { id: "hc-2", name: "HookTwo" }, { id: "hc-3", name: "HookThree" });
    const platform: PlatformOAuthSettings = {
      platform: "hookchat",
      displayName: "HookChat",
      authorizeUrl: `${hookchat.url}/oauth/authorize`,
      tokenUrl: `${hookchat.url}/oauth/token`,
      userInfoUrl: `${hookchat.url}/me`,
      clientId: hookchat.clientId,
      clientSecret: hookchat.clientSecret,
      scopes: ["chat", "events"],
      pkce: false,
      clientIdParam: "client_id",
      userInfoHeaders: () => ({}),
      readProfile: (json) => {
        const data = (json as { data?: { id?: string; name?: string } }).data;
        return data?.id ? { platform_user_id: data.id, username: data.name ?? data.id, email: null, avatar: null } : null;
      },
    };
    server = await startChannelsServer(
      {
        OVATION_PLUGINS: "console,ovation-plugin-hookchat",
        OVATION_PLUGIN_HOOKCHAT_API_URL: hookchat.url,
        OVATION_HOOKCHAT_CLIENT_ID: hookchat.clientId,
        OVATION_HOOKCHAT_CLIENT_SECRET: hookchat.clientSecret,
      },
      [platform],
      modules,
    );
    hookchat.webhookUrl = `${server.base}/v1/platforms/hookchat/webhook`;
  }, 120_000);
  afterAll(async () => {
    await server.close();
    await hookchat.close();
    rmSync(modules, { recursive: true, force: true });
  });

  it("links three accounts, serves each with its own token, answers each !hug and plays each follow in its own browser source only", { timeout: 90_000 }, async () => {
    expect(server.app.pluginReports.list().find((r) => r.id === "hookchat")).toMatchObject({ origin: "package", status: "connected" });
    for (const [i, name] of ["Hana", "Hugo", "Hilda"].entries()) {
      const streamer = server.streamer(name);
      streamers.push(streamer);
      hookchat.nextAccount = hookchat.accounts[i]!.id;
      links.push(await server.link(streamer, "hookchat"));
    }
    await waitFor(() => server.app.platformPlugins.channelStatus("hookchat").filter((c) => c.state === "serving").length === 3, 20_000, "three channels serving");
    expect([...hookchat.subscriptions].sort()).toEqual(["hc-1", "hc-2", "hc-3"]);
    const sources = await Promise.all(streamers.map((s, i) => server.browserSource(s, `${s.uuid}.hookchat.hc-${i + 1}`)));
    for (const i of [0, 1, 2]) {
      expect(await hookchat.deliver({ id: `chat-${i}`, type: "chat", broadcaster_id: `hc-${i + 1}`, user: { id: "v1", name: "Vic" }, text: `!hug Pal${i}` })).toBe(200);
      expect(await hookchat.deliver({ id: `follow-${i}`, type: "follow", broadcaster_id: `hc-${i + 1}`, user: { id: "f1", name: "Fay" } })).toBe(200);
    }
    await waitFor(() => hookchat.sent.length >= 3, 20_000, "three answers");
    expect(hookchat.sent.map((m) => [m.broadcaster_id, m.text]).sort()).toEqual([0, 1, 2].map((i) => [`hc-${i + 1}`, `Vic sends a hug to Pal${i} <3`]));
    await waitFor(() => sources.every((s) => s.played.length >= 1), 20_000, "each follow played");
    for (const [i, source] of sources.entries()) expect(source.played).toEqual([`follow hc-${i + 1}`]);
    // A replayed delivery is not handled twice.
    expect(await hookchat.deliver({ id: "chat-0", type: "chat", broadcaster_id: "hc-1", user: { id: "v1", name: "Vic" }, text: "!hug Pal0" })).toBe(200);
  });

  it("an unlinked channel gets nothing more; a revoked link gets no answer", { timeout: 60_000 }, async () => {
    expect((await api(server.base, `/api/users/@me/connections/${links[2]!.id}`, streamers[2]!.token, { method: "DELETE" })).status).toBe(204);
    await waitFor(() => server.app.platformPlugins.channelStatus("hookchat").length === 2, 20_000, "released");
    const sent = hookchat.sent.length;
    await hookchat.deliver({ id: "late-3", type: "chat", broadcaster_id: "hc-3", user: { id: "v1", name: "Vic" }, text: "!hug Late" });
    await hookchat.deliver({ id: "late-1", type: "chat", broadcaster_id: "hc-1", user: { id: "v1", name: "Vic" }, text: "!hug Late" });
    await waitFor(() => hookchat.sent.length > sent, 20_000, "Hana's answer");
    await server.app.platformPlugins.idle();
    expect(hookchat.sent.slice(sent).map((m) => m.broadcaster_id)).toEqual(["hc-1"]);

    hookchat.revoke("hc-2");
    await hookchat.deliver({ id: "after-revoke", type: "chat", broadcaster_id: "hc-2", user: { id: "v1", name: "Vic" }, text: "!hug Anyone" });
    await server.app.platformPlugins.idle();
    expect(hookchat.sent.some((m) => m.broadcaster_id === "hc-2" && m.text.includes("Anyone"))).toBe(false);
  });
});
