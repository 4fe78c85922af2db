import { definePlugin } from "@ovation/core/contracts";
import type { PluginContext, ServedChannel } from "@ovation/core/contracts";
import pg from "pg";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { startServer } from "../start-server.js";
import type { RunningServer } from "../start-server.js";
import { tempDataDir, testConfig } from "./helpers.js";
import { freshDatabase } from "./services/postgres.js";
import { waitFor } from "./socket-helpers.js";

// The quick start `ovation start` prints says the node serves HTTP and what it printed (a new
// token) is stored; it does not wait for work that goes on after it: a platform plugin still
// connecting (its channels come up once it is connected, as /v1/plugins shows) or a write of the
// store held up by another node's (issue 25: nodes joining a busy installation printed their quick
// start minutes after listening). Each test holds that work back until its quick start came, or,
// on code that waits for it, until a fallback 30 s later lets the start finish and fail the test.

const FALLBACK_MS = 30_000;

/** A gate the test opens; opened anyway after {@link FALLBACK_MS} so a start that waits for it ends. */
function gate(): { opened: Promise<void>; open(): void; isOpen(): boolean } {
  let open = () => undefined as void;
  let isOpen = false;
  const opened = new Promise<void>((resolve) => (open = resolve)).then(() => void (isOpen = true));
  const fallback = setTimeout(open, FALLBACK_MS);
  return {
    opened,
    open: () => {
      clearTimeout(fallback);
      open();
    },
    isOpen: () => isOpen,
  };
}

/** A channel-serving plugin (API 1.1) created once the server listens, whose connect waits for `held`. */
function heldPlugin(held: Promise<void>, served: ServedChannel[]) {
  return definePlugin({ id: "held", settings: z.object({}), createOn: "listen" }, () => ({
    metadata: { name: "held", platform: "heldchat", version: "1.0.0", core: "^0.1.0" },
    capabilities: { send: [], moderation: { deleteMessage: false, timeout: false } },
    channels: () => [],
    connect: async (context: PluginContext) => {
      await held;
      context.setStatus("connected");
    },
    disconnect: async () => undefined,
    send: async () => undefined,
    serveChannel: async (channel: ServedChannel) => void served.push(channel),
    releaseChannel: async () => undefined,
  }));
}

interface Listing {
  data: Array<{ id: string; status: string; channels: Array<{ username: string; state: string }> }>;
}

async function pluginsOf(server: RunningServer, token: string): Promise<Listing["data"]> {
  const res = await fetch(`${server.app.listeningOrigin}/v1/plugins`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as Listing).data;
}

describe("the quick start does not wait for work that goes on after it (issue 25)", () => {
  it("a plugin still connecting on a fresh install: the quick start prints, HTTP answers, and a channel is served once it connects", { timeout: 90_000 }, async () => {
    const data = tempDataDir();
    const held = gate();
    const served: ServedChannel[] = [];
    let openAtQuickStart: boolean | null = null;
    const server = await startServer({
      config: testConfig(data.dir),
      env: { OVATION_PLUGINS: "none" },
      logger: pino({ level: "silent" }),
      plugins: [heldPlugin(held.opened, served)],
      onQuickStart: () => (openAtQuickStart = held.isOpen()),
    });
    try {
      expect(openAtQuickStart, "the quick start came while the plugin was still connecting").toBe(false);
      if (server.firstRun.kind !== "seeded" || server.firstRun.newToken === null) throw new Error("a fresh data directory prints a token");
      const token = server.firstRun.newToken;
      expect((await fetch(`${server.app.listeningOrigin}/health`)).status).toBe(200);
      expect((await pluginsOf(server, token)).find((p) => p.id === "held")?.status).toBe("connecting");
      // The streamer links a channel meanwhile: it waits, starting, for the plugin.
      server.app.ovation.repos.connections.upsert({ user_id: server.firstRun.user.id, platform: "heldchat", platform_user_id: "42", username: "den" });
      await waitFor(async () => (await pluginsOf(server, token)).find((p) => p.id === "held")?.channels[0]?.state === "starting", 10_000, "the channel starting");
      expect(served).toEqual([]);

      held.open();
      await waitFor(async () => (await pluginsOf(server, token)).find((p) => p.id === "held")?.channels[0]?.state === "serving", 20_000, "the channel served once the plugin connected");
      expect((await pluginsOf(server, token)).find((p) => p.id === "held")?.status).toBe("connected");
      // Created and served once (the listen hook's start and the first run's do not both create it).
      expect(served.map((c) => c.username)).toEqual(["den"]);
      expect(server.app.platformPlugins.names().filter((n) => n === "held")).toHaveLength(1);
    } finally {
      held.open();
      await server.close();
      data.remove();
    }
  });

  it("a store write held up by another node's lock: a node that creates nothing prints its quick start without waiting for it", { timeout: 120_000 }, async () => {
    const databaseUrl = await freshDatabase();
    const logger = pino({ level: "silent" });
    const dirA = tempDataDir();
    const first = await startServer({ config: testConfig(dirA.dir, { OVATION_DATABASE_URL: databaseUrl }), env: { OVATION_PLUGINS: "none" }, logger });
    await first.close();
    dirA.remove();

    // Another node's transaction holds the meta document (what the first-run marks are written to).
    const other = new pg.Client({ connectionString: databaseUrl });
    await other.connect();
    await other.query("begin");
    const locked = await other.query("select key from ovation_documents where key = 'meta' for update");
    expect(locked.rowCount).toBe(1);
    const held = gate();
    const released = held.opened.then(() => other.query("rollback"));

    const dirB = tempDataDir();
    let openAtQuickStart: boolean | null = null;
    let server: RunningServer | null = null;
    try {
      server = await startServer({
        config: testConfig(dirB.dir, { OVATION_DATABASE_URL: databaseUrl }),
        env: { OVATION_PLUGINS: "none" },
        logger,
        onQuickStart: () => (openAtQuickStart = held.isOpen()),
      });
      expect(server.firstRun.created).toEqual([]);
      expect(openAtQuickStart, "the quick start came while the meta document was locked").toBe(false);
      expect((await fetch(`${server.app.listeningOrigin}/health`)).status).toBe(200);
    } finally {
      held.open();
      await released;
      await other.end();
      await server?.close();
      dirB.remove();
    }
  });
});
