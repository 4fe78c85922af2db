import { pino } from "pino";
import { TWITCH_BROADCASTER_SCOPES } from "@ovation/plugin-twitch";
import { FakeEventSubServer, FakeHelix, FakeIrcServer, twitchServerEnv } from "@ovation/plugin-twitch/testing";
import { buildApp } from "../../app.js";
import type { OvationApp } from "../../app.js";
import { DEMO_COMMAND, bootstrap } from "../../first-run.js";
import { tempDataDir, testConfig } from "../../__tests__/helpers.js";
import { connect, join, listen } from "../../__tests__/socket-helpers.js";
import type { ClientSocket } from "../../__tests__/socket-helpers.js";
import { TestBrowser, followAcross } from "../../identity/__tests__/browser.js";
import { api, confirmApiLink } from "../../identity/__tests__/oauth-helpers.js";
import { defaultPlatformSettings } from "../../identity/platforms/settings.js";
import type { PlatformOAuthSettings } from "../../identity/platforms/settings.js";

/** One streamer of a channels test: an Ovation user with a token, the demo `!hug` and a browser source. */
export interface Streamer {
  userId: number;
  uuid: string;
  name: string;
  token: string;
  /** The access token of the user's alerts browser source. */
  sourceToken: string;
}

/** A server with identity (link flow) and platform plugins, on loopback, for tests of served channels. */
export interface ChannelsServer {
  app: OvationApp;
  base: string;
  logs: { msg?: string; reason?: string; plugin?: string }[];
  /** Creates a streamer (no email: deletion needs no elevated token) with the demo `!hug` command. */
  streamer(name: string): Streamer;
  /** Links a platform account through `POST /api/users/@me/connections/<platform>/link` and the platform's (fake) OAuth pages. */
  link(streamer: Streamer, platform: string): Promise<{ id: number; platform_user_id: string }>;
  /** A browser source socket of the streamer, joined to the room, recording the notifications it plays. */
  browserSource(streamer: Streamer, room: string): Promise<{ socket: ClientSocket; played: string[] }>;
  close(): Promise<void>;
}

/** Starts a server with `env` (OVATION_PLUGINS and the plugins' settings) and the link flow pointed at the fakes. */
export async function startChannelsServer(env: Record<string, string>, platforms: PlatformOAuthSettings[], cwd?: string): Promise<ChannelsServer> {
  const data = tempDataDir();
  const logs: ChannelsServer["logs"] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void logs.push(JSON.parse(line) as (typeof logs)[number]) });
  const app = await buildApp({ config: testConfig(data.dir), logger, platforms: { env, ...(cwd ? { cwd } : {}) }, identity: { platforms } });
  // The first run (what `ovation start` does before plugins that name the first user start).
  bootstrap(app.ovation.repos);
  const base = await listen(app);
  const sockets: ClientSocket[] = [];
  return {
    app,
    base,
    logs,
    streamer(name) {
      const { repos } = app.ovation;
      const user = repos.users.create({ name, email: null });
      const { token } = repos.tokens.create({ user_id: user.id, name: "test", scopes: ["*"] });
      repos.commands.create(user.id, { ...DEMO_COMMAND, global_cooldown: 0, command_aliases: [...DEMO_COMMAND.command_aliases] });
      app.ovation.commands.reload(user.id);
      const source = repos.browserSources.findOrCreate(user.id, "alerts", null).record;
      return { userId: user.id, uuid: user.uuid, name, token, sourceToken: source.access_token };
    },
    async link(streamer, platform) {
      const started = await api(base, `/api/users/@me/connections/${platform}/link`, streamer.token, { method: "POST" });
      if (started.status !== 201) throw new Error(`link ${platform} answered ${started.status}: ${JSON.stringify(started.body)}`);
      // The link's page (issue 31: links are bound to the browser that completes them) takes the caller's code.
      const browser = new TestBrowser();
      const done = await followAcross(browser, await confirmApiLink(browser, { url: String(started.body.url), code: String(started.body.code) }), "never://");
      const page = await done.response.text();
      if (!page.includes("Account linked")) throw new Error(`linking ${platform} did not finish: ${page.slice(0, 300)}`);
      const connection = app.ovation.repos.connections.listForUser(streamer.userId).find((c) => c.platform === platform);
      if (!connection) throw new Error(`no ${platform} connection for ${streamer.name}`);
      return { id: connection.id, platform_user_id: connection.platform_user_id };
    },
    async browserSource(streamer, room) {
      const socket = await connect(base, { browserSourceToken: streamer.sourceToken });
      sockets.push(socket);
      const played: string[] = [];
      socket.on("notifysub", (n) => played.push(`${n.subscription.type} ${n.subscription.condition.platform_id}`));
      const joined = await join(socket, room);
      if (!("joined" in joined)) throw new Error(`browser source could not join ${room}: ${JSON.stringify(joined)}`);
      return { socket, played };
    },
    async close() {
      for (const socket of sockets) socket.close();
      await app.close();
      data.remove();
    },
  };
}

/** The Twitch fakes and a channels server whose Twitch plugin and link flow point at them. */
export interface TwitchChannels {
  helix: FakeHelix;
  chat: FakeIrcServer;
  eventsub: FakeEventSubServer;
  server: ChannelsServer;
  close(): Promise<void>;
}

/**
 * Starts the Twitch fakes (Helix with its OAuth pages, IRC chat with `channels` (login -> user id),
 * EventSub) and a channels server with the console and Twitch plugins on them; `helix` adds what a
 * test needs of Helix (more users, channel information, a clock) before the server starts. Link a
 * streamer with `helix.nextUser = login` and `server.link(streamer, "twitch")`.
 */
export async function startTwitchChannels(channels: Record<string, string>, helixSetup: (helix: FakeHelix) => void = () => undefined): Promise<TwitchChannels> {
  const helix = await FakeHelix.start();
  for (const [login, id] of Object.entries(channels)) helix.addUser(login, id);
  helixSetup(helix);
  const chat = await FakeIrcServer.start(channels);
  const eventsub = await FakeEventSubServer.start();
  const settings = defaultPlatformSettings("twitch", { clientId: "fake-client", clientSecret: "fake-secret" });
  if (settings === null) throw new Error("no twitch settings");
  const server = await startChannelsServer(
    {
      OVATION_PLUGINS: "console,twitch",
      ...twitchServerEnv({ helix, chat, eventsub }),
    },
    [{ ...settings, scopes: [...TWITCH_BROADCASTER_SCOPES], authorizeUrl: `${helix.base}/oauth2/authorize`, tokenUrl: `${helix.base}/oauth2/token`, userInfoUrl: `${helix.base}/helix/users` }],
  );
  return {
    helix,
    chat,
    eventsub,
    server,
    async close() {
      await server.close();
      await chat.close();
      await eventsub.close();
      await helix.close();
    },
  };
}
