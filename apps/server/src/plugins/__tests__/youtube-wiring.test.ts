import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import type { OvationApp } from "../../app.js";
import { bootstrap } from "../../cli/first-run.js";
import { tempDataDir, testConfig } from "../../__tests__/helpers.js";
import { listen, waitFor } from "../../__tests__/socket-helpers.js";
import { FakeGoogle, chatMessage } from "@ovation/plugin-youtube/testing";
import { loadPlugins } from "../plugin-loader.js";

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
    await expect(load({ OVATION_PLUGINS: "youtube", OVATION_YOUTUBE_CLIENT_ID: "a", OVATION_YOUTUBE_CLIENT_SECRET: "b", OVATION_YOUTUBE_USER: "me" })).rejects.toThrow(
      "OVATION_YOUTUBE_USER: must be an Ovation user id",
    );
  });
});

describe("the youtube plugin wired from OVATION_PLUGINS=youtube", () => {
  const data = tempDataDir();
  let google: FakeGoogle;
  let app: OvationApp;

  beforeAll(async () => {
    google = await FakeGoogle.start();
    google.live = true;
    app = await buildApp({
      config: testConfig(data.dir),
      logger: pino({ level: "silent" }),
      platforms: {
        env: { OVATION_PLUGINS: "console,youtube", ...google.serverEnv() },
      },
    });
    const result = bootstrap(app.ovation.repos);
    if (result.kind !== "seeded") throw new Error("a fresh data directory is seeded");
    app.ovation.commands.reload(result.user.id);
    await listen(app);
  });
  afterAll(async () => {
    await app.close();
    await google.close();
    data.remove();
  });

  it("connects, links the channel with its refreshed tokens, answers !hug through insert and shows the quota", { timeout: 60_000 }, async () => {
    await waitFor(() => app.platformPlugins.health().some((h) => h.name === "youtube" && h.status === "connected" && (h.detail ?? "").startsWith("live")), 20_000, "youtube live");
    const user = app.ovation.repos.users.list()[0]!;
    const connection = app.ovation.repos.connections.listForUser(user.id).find((c) => c.platform === "youtube");
    expect(connection).toMatchObject({ platform_user_id: "UCowner00000000000000000", username: "FunStreamer" });
    const tokens = app.ovation.repos.connections.tokensOf(connection!.id);
    expect(tokens?.refresh_token).toBe(google.refreshToken);
    expect(tokens?.access_token).toMatch(/^ya29\.fake-/);

    google.publish(chatMessage("hug-command"));
    await google.waitFor(() => google.inserted.length > 0, 30_000, "the !hug answer");
    expect(google.inserted).toEqual(["Carol sends a hug to Bob <3"]);

    // A refresh after the access token expired is written to the store, not only kept in memory.
    const before = tokens?.access_token;
    google.expireAccessTokens();
    google.publish(chatMessage("text"));
    await waitFor(() => app.ovation.repos.connections.tokensOf(connection!.id)?.access_token !== before, 20_000, "stored refreshed token");

    const health = app.platformPlugins.health().find((h) => h.name === "youtube");
    expect(health?.detail).toMatch(/quota \d+\/10000000 units used today \(\d+ left\)/);
  });

  it("starts again from the stored tokens, without the environment's refresh token", { timeout: 60_000 }, async () => {
    await app.close();
    const refreshes = google.refreshes;
    const env: Record<string, string> = { OVATION_PLUGINS: "youtube", ...google.serverEnv() };
    delete env.OVATION_YOUTUBE_REFRESH_TOKEN;
    app = await buildApp({ config: testConfig(data.dir), logger: pino({ level: "silent" }), platforms: { env } });
    await listen(app);
    await waitFor(() => app.platformPlugins.health().some((h) => h.name === "youtube" && h.status === "connected"), 20_000, "youtube connected again");
    // The stored access token was still valid: no refresh was needed.
    expect(google.refreshes).toBe(refreshes);
  });

  it("without any Google tokens the plugin shows as failed with the step that fixes it", { timeout: 60_000 }, async () => {
    const other = tempDataDir();
    const env: Record<string, string> = { OVATION_PLUGINS: "youtube", ...google.serverEnv() };
    delete env.OVATION_YOUTUBE_REFRESH_TOKEN;
    const bare = await buildApp({ config: testConfig(other.dir), logger: pino({ level: "silent" }), platforms: { env } });
    try {
      bootstrap(bare.ovation.repos);
      await listen(bare);
      await waitFor(() => bare.platformPlugins.health().some((h) => h.name === "youtube" && h.status === "failed"), 20_000, "youtube failed");
      expect(bare.platformPlugins.health().find((h) => h.name === "youtube")?.detail).toMatch(/No Google tokens for YouTube: link YouTube again under Connections/);
    } finally {
      await bare.close();
      other.remove();
    }
  });
});
