import { existsSync } from "node:fs";
import { join } from "node:path";
import { definePlugin } from "@ovation/core/contracts";
import type { PluginContext } from "@ovation/core/contracts";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ADMIN_SOCKET_FILE } from "../admin/admin-protocol.js";
import { callRunningServer } from "../cli/admin-client.js";
import { startServer } from "../start-server.js";
import { tempDataDir, testConfig } from "./helpers.js";

/** A program's own plugin: it keeps the context so the test can emit a follow. */
function ownPlugin(probe: { context: PluginContext | null }) {
  return definePlugin({ id: "own", settings: z.object({ room: z.string().default("den") }) }, (settings) => ({
    metadata: { name: "own", platform: "ownchat", version: "1.0.0", core: "^0.1.0" },
    capabilities: { send: [], moderation: { deleteMessage: false, timeout: false } },
    platform: { name: "Own Chat" },
    channels: () => [{ id: "1", platform_id: settings.room, username: settings.room, avatar_url: "" }],
    connect: async (context: PluginContext) => {
      probe.context = context;
      context.setStatus("connected");
    },
    disconnect: async () => undefined,
    send: async () => undefined,
  }));
}

describe("startServer (embedding the whole host)", () => {
  it("listens, runs the first run with the program's plugin platform, opens the admin socket, and closes without signals", async () => {
    const data = tempDataDir();
    const probe: { context: PluginContext | null } = { context: null };
    let quickStart = "";
    const sigintListeners = process.listenerCount("SIGINT");
    const server = await startServer({
      config: testConfig(data.dir),
      env: { OVATION_PLUGINS: "none", OVATION_PLUGIN_OWN_ROOM: "lair" },
      logger: pino({ level: "silent" }),
      plugins: [ownPlugin(probe)],
      onQuickStart: (text) => (quickStart = text),
    });
    try {
      expect(process.listenerCount("SIGINT")).toBe(sigintListeners); // signals are opt-in
      expect(server.firstRun.created).toEqual(["user", "alert set", "command", "token", "browser source"]);
      if (server.firstRun.kind !== "seeded") throw new Error("a fresh data directory is seeded");
      expect(quickStart).toContain(server.firstRun.newToken ?? "missing");
      expect(quickStart).toContain(`Dashboard: ${server.config.publicUrl}/dashboard`);
      expect(quickStart).toContain("npx ovation user password --user 'streamer' --email");
      expect(existsSync(join(data.dir, ADMIN_SOCKET_FILE))).toBe(true);
      const defaults = (server.app.ovation.repos.alertSets.activeForUser(server.firstRun.user.id)?.config["defaults"] ?? []) as { platform: string }[];
      expect(defaults.filter((d) => d.platform === "ownchat")).toHaveLength(6);
      const listing = (await callRunningServer(data.dir, { op: "plugins.list" })) as { plugins: { id: string; origin: string; status: string }[] };
      expect(listing.plugins).toEqual([expect.objectContaining({ id: "own", origin: "embedded", status: "connected" })]);
      expect(probe.context).not.toBeNull();
      expect(server.app.platformPlugins.get("own").channels()[0]?.platform_id).toBe("lair");
      await server.close();
      await server.closed;
      expect(existsSync(join(data.dir, ADMIN_SOCKET_FILE))).toBe(false);
      expect(server.app.server.listening).toBe(false);
    } finally {
      await server.close();
      data.remove();
    }
  });

  it("with signals, closes on SIGTERM", async () => {
    const data = tempDataDir();
    const server = await startServer({ config: testConfig(data.dir), env: { OVATION_PLUGINS: "none" }, logger: pino({ level: "silent" }), signals: true });
    try {
      process.emit("SIGTERM", "SIGTERM");
      await server.closed;
      expect(server.app.server.listening).toBe(false);
    } finally {
      data.remove();
    }
  });
});
