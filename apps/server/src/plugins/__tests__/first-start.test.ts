import { definePlugin } from "@ovation/core/contracts";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { callRunningServer } from "../../cli/admin-client.js";
import { startServer } from "../../start-server.js";
import { tempDataDir, testConfig } from "../../__tests__/helpers.js";

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
      const listing = (await callRunningServer(data.dir, { op: "plugins.list" })) as { plugins: { id: string; status: string; detail: string | null; channels: unknown[] }[] };
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
