import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeGoogle, chatMessage } from "@ovation/plugin-youtube/testing";
import { waitFor } from "../../__tests__/socket-helpers.js";
import { api } from "../../identity/__tests__/oauth-helpers.js";
import { defaultPlatformSettings } from "../../identity/platforms/settings.js";
import { loadPlugins } from "../plugin-loader.js";
import { startChannelsServer } from "./channels-harness.js";
import type { ChannelsServer, Streamer } from "./channels-harness.js";

const load = (env: Record<string, string>) => loadPlugins({ env, dataDir: "/nonexistent-ovation", cwd: "/nonexistent-ovation" });

describe("youtube settings from the environment", () => {
  it("needs the Google client and names bad variables", async () => {
    await expect(load({ OVATION_PLUGINS: "youtube" })).rejects.toThrow("OVATION_YOUTUBE_CLIENT_ID: is required when the youtube plugin is enabled");
    await expect(
      load({ OVATION_PLUGINS: "youtube", OVATION_YOUTUBE_CLIENT_ID: "a", OVATION_YOUTUBE_CLIENT_SECRET: "b", OVATION_YOUTUBE_DAILY_QUOTA: "lots" }),
    ).rejects.toThrow("OVATION_YOUTUBE_DAILY_QUOTA: must be a number");
    expect(
      (await load({ OVATION_PLUGINS: "youtube", OVATION_YOUTUBE_CLIENT_ID: "a", OVATION_YOUTUBE_CLIENT_SECRET: "b", OVATION_YOUTUBE_STREAM_HOURS: "6" }))[0]?.settings,
    ).toEqual({ clientId: "a", clientSecret: "b", streamHours: 6 });
  });
});

describe("YouTube served per streamer: three streamers link their own channel, sharing the project's quota", () => {
  let google: FakeGoogle;
  let server: ChannelsServer;
  const streamers: Streamer[] = [];
  const links: { id: number; platform_user_id: string }[] = [];

  beforeAll(async () => {
    google = await FakeGoogle.start();
    google.live = true;
    google.addChannel("UCsecond0000000000000000", "SecondTuber", true);
    google.addChannel("UCthird00000000000000000", "ThirdTuber", true);
    const settings = defaultPlatformSettings("youtube", { clientId: google.clientId, clientSecret: google.clientSecret });
    if (settings === null) throw new Error("no youtube settings");
    server = await startChannelsServer(
      { OVATION_PLUGINS: "console,youtube", ...google.serverEnv(), OVATION_YOUTUBE_DAILY_QUOTA: "9000000" },
      [{ ...settings, authorizeUrl: `http://127.0.0.1:${google.port}/o/oauth2/v2/auth`, tokenUrl: google.tokenUrl, userInfoUrl: `${google.apiUrl}/channels?part=snippet&mine=true` }],
    );
  });
  afterAll(async () => {
    await server.close();
    await google.close();
  });

  it("polls each linked channel's chat with its own tokens, answers each !hug in its own chat, and shares the quota in equal parts", { timeout: 90_000 }, async () => {
    for (const [i, name] of ["Yan", "Yas", "Yul"].entries()) {
      const streamer = server.streamer(name);
      streamers.push(streamer);
      google.nextChannel = google.channels[i]!.id;
      links.push(await server.link(streamer, "youtube"));
    }
    expect(links.map((l) => l.platform_user_id)).toEqual(google.channels.map((c) => c.id));
    await waitFor(() => server.app.platformPlugins.channelStatus("youtube").filter((c) => c.state === "serving" && (c.detail ?? "").startsWith("live")).length === 3, 30_000, "three channels live");
    for (const [i, channel] of google.channels.entries()) {
      const hug = chatMessage("hug-command");
      (hug.snippet as Record<string, unknown>).displayMessage = `!hug Fan${i}`;
      ((hug.snippet as Record<string, unknown>).textMessageDetails as Record<string, unknown>).messageText = `!hug Fan${i}`;
      google.publishTo(channel.id, hug);
    }
    await google.waitFor(() => google.channels.every((c) => c.inserted.length > 0), 30_000, "three !hug answers");
    expect(google.channels.map((c) => c.inserted)).toEqual([0, 1, 2].map((i) => [`Carol sends a hug to Fan${i} <3`]));
    // Each channel's status shows its own use of its share: 9,000,000 units / 3 channels.
    for (const c of server.app.platformPlugins.channelStatus("youtube")) expect(c.detail).toMatch(/quota \d+\/3000000 units used today/);
    const view = await api(server.base, "/api/users/@me/connections", streamers[0]!.token);
    expect(view.body).toMatchObject([{ platform: "youtube", status: { state: "serving", message: expect.stringMatching(/quota \d+\/3000000/) } }]);
  });

  it("a channel leaving gives its share back; a revoked link needs reconnecting", { timeout: 60_000 }, async () => {
    expect((await api(server.base, `/api/users/@me/connections/${links[2]!.id}`, streamers[2]!.token, { method: "DELETE" })).status).toBe(204);
    await waitFor(() => server.app.platformPlugins.channelStatus("youtube").length === 2, 20_000, "third channel released");
    const polls = google.calls["liveChatMessages.list"] ?? 0;
    google.publishTo(google.channels[2]!.id, chatMessage("hug-command"));
    await google.waitFor(() => (google.calls["liveChatMessages.list"] ?? 0) > polls + 4, 20_000, "more polls");
    expect(google.channels[2]!.inserted).toHaveLength(1);
    await waitFor(() => server.app.platformPlugins.channelStatus("youtube").every((c) => /quota \d+\/4500000/.test(c.detail ?? "")), 20_000, "shares of 4,500,000");

    google.revoke(google.channels[1]!.id);
    google.publishTo(google.channels[1]!.id, chatMessage("hug-command"));
    await waitFor(() => server.app.platformPlugins.channelStatus("youtube").find((c) => c.connection_id === links[1]!.id)?.state === "needs_reconnect", 30_000, `needs reconnecting: ${JSON.stringify(server.app.platformPlugins.channelStatus("youtube"))}`).catch((e: unknown) => { throw new Error(`${String(e)} ${JSON.stringify(server.app.platformPlugins.channelStatus("youtube"))}`); });
  });
});
