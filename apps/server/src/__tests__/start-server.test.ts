import { existsSync } from "node:fs";
import { join } from "node:path";
import { definePlugin } from "@ovation/core/contracts";
import type { PluginContext } from "@ovation/core/contracts";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ADMIN_SOCKET_FILE } from "../admin/admin-protocol.js";
import { callRunningServer } from "../cli/admin-client.js";
import { hashPassword } from "../identity/accounts/passwords.js";
import { loadConfig } from "../config.js";
import { startServer } from "../start-server.js";
import { tempDataDir, testConfig } from "./helpers.js";
import { freePort } from "./services/free-port.js";


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

  it("with HOST=127.0.0.1 the identity host is the printed localhost address, so the dashboard has one origin (issue 26, bug 1)", async () => {
    const data = tempDataDir();
    const port = await freePort();
    const config = loadConfig({ OVATION_DATA_DIR: data.dir, HOST: "127.0.0.1", PORT: String(port), OVATION_LOG_LEVEL: "silent" });
    expect(config.publicUrl).toBe(`http://localhost:${port}`);
    let quickStart = "";
    const server = await startServer({ config, env: { OVATION_PLUGINS: "none" }, logger: pino({ level: "silent" }), onQuickStart: (text) => (quickStart = text) });
    try {
      expect(quickStart).toContain(`Dashboard: http://localhost:${port}/dashboard`);
      const page = await fetch(`http://127.0.0.1:${port}/dashboard`);
      const html = await page.text();
      expect(html).toContain(`"issuer":"http://localhost:${port}/oauth"`);
      expect(html).not.toContain("127.0.0.1");
      const discovery = (await (await fetch(`http://localhost:${port}/oauth/.well-known/openid-configuration`)).json()) as { issuer: string };
      expect(discovery.issuer).toBe(`http://localhost:${port}/oauth`);
    } finally {
      await server.close();
      data.remove();
    }
  });

  it("the first-start text asks for a password only while the user has none (issue 26, bug 10)", async () => {
    const data = tempDataDir();
    const first = await startServer({ config: testConfig(data.dir), env: { OVATION_PLUGINS: "none" }, logger: pino({ level: "silent" }) });
    let userId = 0;
    try {
      expect(first.quickStart).toContain("give streamer an email address and a password once");
      if (first.firstRun.kind !== "seeded") throw new Error("a fresh data directory is seeded");
      userId = first.firstRun.user.id;
      first.app.ovation.repos.users.update(userId, { email: "me@example.com", password_hash: await hashPassword("a long enough passphrase") });
    } finally {
      await first.close();
    }
    const again = await startServer({ config: testConfig(data.dir), env: { OVATION_PLUGINS: "none" }, logger: pino({ level: "silent" }) });
    try {
      expect(again.quickStart).not.toContain("a password once");
      expect(again.quickStart).toContain("Sign in as streamer with its email address and password");
    } finally {
      await again.close();
      data.remove();
    }
  });
});
