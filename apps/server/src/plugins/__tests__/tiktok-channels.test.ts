import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeWebcast, tiktokFixtures, tiktokMessage } from "@ovation/plugin-tiktok/testing";
import { waitFor } from "../../__tests__/socket-helpers.js";
import { api } from "../../identity/__tests__/oauth-helpers.js";
import { startChannelsServer } from "./channels-harness.js";
import type { ChannelsServer } from "./channels-harness.js";

describe("TikTok served per linked username", () => {
  let fake: FakeWebcast;
  let server: ChannelsServer;

  beforeAll(async () => {
    fake = await new FakeWebcast().start();
    const env = fake.serverEnv();
    delete env.OVATION_TIKTOK_UNIQUE_ID;
    server = await startChannelsServer({ OVATION_PLUGINS: "console,tiktok", ...env }, []);
  });
  afterAll(async () => {
    await server.close();
    await fake.stop();
  });

  it("follows the LIVE of a linked username once linked, plays its follow in the streamer's browser source, and leaves it when unlinked", { timeout: 60_000 }, async () => {
    const streamer = server.streamer("Tia");
    const other = server.streamer("Tom");
    // No TikTok OAuth fake exists: the link is stored as the link flow stores it (its change feed serves it).
    const link = server.app.ovation.repos.connections.upsert({ user_id: streamer.userId, platform: "tiktok", platform_user_id: "open-id-tia", username: tiktokFixtures.room.uniqueId });
    await waitFor(() => server.app.platformPlugins.channelStatus("tiktok").some((c) => c.state === "serving" && (c.detail ?? "").startsWith("live")), 30_000, "tiktok live");
    await fake.waitForConnections(1);
    const mine = await server.browserSource(streamer, `${streamer.uuid}.ovation.${streamer.userId}`);
    const theirs = await server.browserSource(other, `${other.uuid}.ovation.${other.userId}`);
    fake.push([tiktokMessage("follow")]);
    await waitFor(() => mine.played.length > 0, 20_000, "the follow");
    expect(mine.played[0]).toMatch(/^follow /);
    expect(theirs.played).toEqual([]);
    expect((await api(server.base, `/api/users/@me/connections/${link.id}`, streamer.token, { method: "DELETE" })).status).toBe(204);
    await waitFor(() => fake.connections === 0 && server.app.platformPlugins.channelStatus("tiktok").length === 0, 20_000, "left the LIVE");
  });
});
