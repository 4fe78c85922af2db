import { definePlugin } from "@ovation/core/contracts";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { callRunningServer } from "../../cli/admin-client.js";
import { startServer } from "../../start-server.js";
import { tempDataDir, testConfig } from "../../__tests__/helpers.js";
import { waitFor } from "../../__tests__/socket-helpers.js";

/** A plugin that, like the single-user platform plugins of before, serves the first user and needs one to exist. */
const firstUserPlugin = definePlugin({ id: "firstuser", settings: z.object({}), createOn: "listen" }, (_settings, context) => {
  const owner = context.firstUserId();
  if (owner === null) throw new Error("there is no user yet to serve");
  return {
    metadata: { name: "firstuser", platform: "firstchat", version: "1.0.0", core: "^0.1.0" },
    capabilities: { send: [], moderation: { deleteMessage: false, timeout: false } },
    channels: () => [{ id: String(owner), platform_id: "room", username: "room", avatar_url: "" }],
    connect: async (c) => c.setStatus("connected"),
    disconnect: async () => undefined,
    send: async () => undefined,
  };
});

describe("a fresh install", () => {
  it("starts its plugins after the first run made the first user: none shows failed for want of one", { timeout: 60_000 }, async () => {
    const data = tempDataDir();
    const server = await startServer({
      config: testConfig(data.dir),
      env: { OVATION_PLUGINS: "console,kick", OVATION_KICK_CLIENT_ID: "app", OVATION_KICK_CLIENT_SECRET: "secret" },
      logger: pino({ level: "silent" }),
      plugins: [firstUserPlugin],
    });
    try {
      if (server.firstRun.kind !== "seeded") throw new Error("a fresh data directory is seeded");
      type Listing = { plugins: { id: string; status: string; detail: string | null; channels: unknown[] }[] };
      // The quick start does not wait for the plugins created after it to connect (they show connecting meanwhile).
      let listing: Listing = { plugins: [] };
      await waitFor(async () => {
        listing = (await callRunningServer(data.dir, { op: "plugins.list" })) as Listing;
        return listing.plugins.every((p) => p.status !== "connecting" && p.status !== "pending");
      }, 20_000, "the plugins connected or failed");
      expect(listing.plugins.map((p) => [p.id, p.status])).toEqual([
        ["console", "connected"],
        ["kick", "connected"],
        ["firstuser", "connected"],
      ]);
      expect(listing.plugins.find((p) => p.id === "kick")).toMatchObject({ detail: "no channel linked yet", channels: [] });
      expect(server.app.platformPlugins.get("firstuser").channels()[0]?.id).toBe(String(server.firstRun.user.id));
    } finally {
      await server.close();
      data.remove();
    }
  });
});
