import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import type { OvationApp } from "../../app.js";
import { bootstrap } from "../../cli/first-run.js";
import { tempDataDir, testConfig } from "../../__tests__/helpers.js";
import { listen, waitFor } from "../../__tests__/socket-helpers.js";
import { FakeKick, KickWebhookSender } from "@ovation/plugin-kick/testing";
import { loadPlugins } from "../plugin-loader.js";

const load = (env: Record<string, string>) => loadPlugins({ env, dataDir: "/nonexistent-ovation", cwd: "/nonexistent-ovation" });

describe("kick settings from the environment", () => {
  it("needs the Kick app and names bad variables", async () => {
    await expect(load({ OVATION_PLUGINS: "kick" })).rejects.toThrow("OVATION_KICK_CLIENT_ID: is required when the kick plugin is enabled");
    const base = { OVATION_PLUGINS: "kick", OVATION_KICK_CLIENT_ID: "a", OVATION_KICK_CLIENT_SECRET: "b" };
    await expect(load({ ...base, OVATION_KICK_MODE: "irc" })).rejects.toThrow("OVATION_KICK_MODE: must be webhook or pusher");
    await expect(load({ ...base, OVATION_KICK_CHATROOM_ID: "room" })).rejects.toThrow("OVATION_KICK_CHATROOM_ID: must be Kick's numeric chatroom id");
    expect((await load({ ...base, OVATION_KICK_MODE: "pusher", OVATION_KICK_CHATROOM_ID: "42", OVATION_KICK_SUBSCRIBE: "false", OVATION_KICK_WEBHOOK_PUBLIC_KEY: "a\\nb" }))[0]?.settings).toEqual({
      clientId: "a",
      clientSecret: "b",
      mode: "pusher",
      chatroomId: "42",
      subscribe: false,
      webhookPublicKey: "a\nb",
    });
  });
});

describe("the kick plugin wired from OVATION_PLUGINS=kick", () => {
  const data = tempDataDir();
  let kick: FakeKick;
  let sender: KickWebhookSender;
  let app: OvationApp;
  const logs: { msg?: string; reason?: string }[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void logs.push(JSON.parse(line) as (typeof logs)[number]) });
  const env = (): Record<string, string> => ({ OVATION_PLUGINS: "console,kick", ...kick.serverEnv(), OVATION_KICK_WEBHOOK_PUBLIC_KEY: sender.publicKeyPem });

  beforeAll(async () => {
    kick = await FakeKick.start();
    sender = new KickWebhookSender();
    kick.publicKeyPem = sender.publicKeyPem;
    app = await buildApp({ config: testConfig(data.dir), logger, platforms: { env: env() } });
    const result = bootstrap(app.ovation.repos);
    if (result.kind !== "seeded") throw new Error("a fresh data directory is seeded");
    app.ovation.commands.reload(result.user.id);
    const base = await listen(app);
    sender.url = `${base}/v1/platforms/kick/webhook`;
  });
  afterAll(async () => {
    await app.close();
    await kick.close();
    data.remove();
  });

  it("links the account with its refreshed tokens, answers !hug from a webhook and refuses forged and replayed webhooks", { timeout: 60_000 }, async () => {
    await waitFor(() => app.platformPlugins.health().some((h) => h.name === "kick" && h.status === "connected" && (h.detail ?? "").includes("events subscribed")), 20_000, "kick connected");
    const user = app.ovation.repos.users.list()[0]!;
    const connection = app.ovation.repos.connections.listForUser(user.id).find((c) => c.platform === "kick");
    expect(connection).toMatchObject({ platform_user_id: "123456789", username: "KickStreamer" });
    const tokens = app.ovation.repos.connections.tokensOf(connection!.id);
    expect(tokens?.refresh_token).toBe(kick.refreshToken);
    expect(tokens?.access_token).toMatch(/^kick-access-/);

    const hug = await sender.send({
      type: "chat.message.sent",
      version: "1",
      body: {
        message_id: "hug-1",
        broadcaster: { user_id: 123456789, username: "KickStreamer" },
        sender: { user_id: 42, username: "Carol", identity: { username_color: null, badges: [] } },
        content: "!hug Bob",
        emotes: [],
      },
    });
    expect(hug.status).toBe(200);
    await waitFor(() => kick.sent.length > 0, 20_000, "the !hug answer");
    expect(kick.sent[0]?.content).toBe("Carol sends a hug to Bob <3");

    const [forged] = await sender.attack("forged-signature");
    expect(forged?.status).toBe(403);
    expect(JSON.parse(forged?.answer ?? "{}")).toMatchObject({ reason: "bad_signature", message: expect.stringContaining("does not verify") });
    const [stale] = await sender.attack("stale-timestamp");
    expect(stale?.status).toBe(403);
    const replays = await sender.attack("replay");
    expect(replays.map((r) => JSON.parse(r.answer) as { reason?: string; status?: string })).toEqual([{ status: "ok" }, { message: expect.stringContaining("already received"), reason: "replay" }]);
    const refused = logs.filter((l) => l.msg?.startsWith("Kick webhook refused")).map((l) => l.reason);
    expect(refused).toEqual(["bad_signature", "stale_timestamp", "replay"]);

    // A refresh after the access token expired is written to the store, not only kept in memory.
    const before = tokens?.access_token;
    kick.expireAccessTokens();
    const plugin = app.platformPlugins.get("kick");
    await plugin.send({ channel: plugin.channels()[0]!, text: "after the token expired", send_as: "say", reply_to: null });
    expect(kick.sent.at(-1)?.content).toBe("after the token expired");
    await waitFor(() => app.ovation.repos.connections.tokensOf(connection!.id)?.access_token !== before, 20_000, "stored refreshed token");
  });

  it("starts again from the stored tokens, without the environment's refresh token", { timeout: 60_000 }, async () => {
    await app.close();
    const refreshes = kick.refreshes;
    const next = env();
    delete next.OVATION_KICK_REFRESH_TOKEN;
    app = await buildApp({ config: testConfig(data.dir), logger: pino({ level: "silent" }), platforms: { env: next } });
    await listen(app);
    await waitFor(() => app.platformPlugins.health().some((h) => h.name === "kick" && h.status === "connected"), 20_000, "kick connected again");
    expect(kick.refreshes).toBe(refreshes);
  });
});
