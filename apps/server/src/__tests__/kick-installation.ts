import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { FakeKick, KickWebhookSender, webhookEvent } from "@ovation/plugin-kick/testing";
import { FakeEventSubServer, FakeHelix, FakeIrcServer, privmsgLine, twitchServerEnv } from "@ovation/plugin-twitch/testing";
import { FakeGoogle, chatMessage } from "@ovation/plugin-youtube/testing";
import type { SentChat, WebhookFixture } from "@ovation/plugin-kick/testing";
import { callRunningServer } from "../cli/admin-client.js";
import { TestBrowser, followAcross } from "../identity/__tests__/browser.js";
import { api, confirmApiLink } from "../identity/__tests__/oauth-helpers.js";
import { defaultPlatformSettings } from "../identity/platforms/settings.js";
import { NODE_STATUS_PREFIX } from "../redis/node-status.js";
import type { NodeStatus } from "../redis/node-status.js";
import { PostgresBackend } from "../store/postgres-backend.js";
import { createRepositories } from "../store/repositories.js";
import { Store } from "../store/store.js";
import { startNodeProcess } from "./node-process.js";
import type { NodeProcess } from "./node-process.js";
import { freshDatabase } from "./services/postgres.js";
import { startOwnRedis } from "./services/redis.js";
import type { OwnRedis } from "./services/redis.js";

/** A Kick account of the fake, linked by one streamer. */
export interface KickAccount {
  user_id: number;
  name: string;
}

/** A Twitch account of the fake, linked by one streamer. */
export interface TwitchAccount {
  login: string;
  id: string;
}

/** A YouTube channel of the fake Google, linked by one streamer (live, its chat polled). */
export interface YouTubeAccount {
  id: string;
  title: string;
}

/**
 * An installation of `ovation start` processes on one PostgreSQL and one Redis serving linked Kick
 * channels of the fake Kick (and, with `twitch`, linked Twitch channels of the fake Helix, IRC and
 * EventSub servers, answered by the operator's bot account over one IRC connection per node; with
 * `youtube`, live YouTube channels of the fake Google, whose chats the node serving each polls).
 */
export interface KickInstallation {
  readonly redis: OwnRedis;
  readonly kick: FakeKick;
  readonly irc: FakeIrcServer | null;
  readonly twitchAccounts: TwitchAccount[];
  readonly google: FakeGoogle | null;
  readonly youtubeAccounts: YouTubeAccount[];
  readonly nodes: NodeProcess[];
  readonly accounts: KickAccount[];
  /** The first user's personal access token (from node-a's quick start). */
  readonly token: string;
  /** Starts one more node (data directory of its own, same store, Redis and plugins). */
  startNode(name: string): Promise<NodeProcess>;
  /** The nodes whose process still runs. */
  live(): NodeProcess[];
  /** How many channels (Kick and Twitch) each node serves, from `GET /v1/plugins` of `via` (default the first live node). */
  servedByNode(via?: NodeProcess): Promise<Record<string, number>>;
  /** How many channels each node has in each plugin and state (`kick serving`: 40), from `GET /v1/plugins` of the first live node. */
  statesByNode(): Promise<Record<string, Record<string, number>>>;
  /** The channels each live node lists in another state than serving, from the statuses the nodes wrote to Redis. */
  notServing(): Promise<Array<{ node: string; plugin: string; username: string; state: string; detail: string | null; since: number }>>;
  /** The Kick accounts a node serves, from the status it wrote to Redis. */
  servedBy(node: string): Promise<KickAccount[]>;
  /** The Twitch accounts a node serves, from the status it wrote to Redis. */
  servedTwitchBy(node: string): Promise<TwitchAccount[]>;
  /** Posts a signed `!help <tag>` chat line of `account` to `node`'s webhook; the bot answers "There is no command !<tag>." once. */
  line(account: KickAccount, node: NodeProcess): Promise<string>;
  /** The answers the fake Kick got for a line. */
  answers(tag: string): SentChat[];
  /** The YouTube channels a node serves, from the status it wrote to Redis. */
  servedYouTubeBy(node: string): Promise<YouTubeAccount[]>;
  /** Adds a `!help <tag>` chat line to a YouTube channel's live chat (read by the node polling it). */
  youtubeLine(account: YouTubeAccount): string;
  /** How many times the bot answered a YouTube line (liveChatMessages.insert in that chat). */
  youtubeAnswers(tag: string, account: YouTubeAccount): number;
  /** Publishes a `!help <tag>` chat line in a Twitch channel (to every connection that joined it). */
  twitchLine(account: TwitchAccount): string;
  /** How many times the bot answered a Twitch line (PRIVMSG in that channel). */
  twitchAnswers(tag: string, account: TwitchAccount): number;
  close(): Promise<void>;
}

/** Options of {@link startKickInstallation}. */
export interface KickInstallationOptions {
  channels: number;
  leaseSeconds: number;
  nodeTtlSeconds: number;
  /** Node names started after the links are made (node-a, which makes them, is always first). */
  more: string[];
  /** Streamers who also link a Twitch channel (the first `twitch` of them); default none. */
  twitch?: number;
  /** Streamers who also link a live YouTube channel (the first `youtube` of them); default none. */
  youtube?: number;
  /**
   * How many streamers link their Kick and Twitch accounts through the real OAuth flow (default
   * all); the others' links are written through the store's repositories, as the link flow's last
   * step writes them (the user, the connection, the tokens the platform's fake issued), from a
   * store of the test's own on the same PostgreSQL: the nodes learn them as they learn another
   * node's links. YouTube links are always written so.
   */
  oauth?: number;
}

/**
 * Starts Redis, PostgreSQL (a fresh database), the fake Kick and node-a; creates `channels`
 * streamers, the first `oauth` through node-a's admin socket (as `ovation user create` does), each
 * linking a Kick account of the fake through the link flow, the rest through the store (see
 * {@link KickInstallationOptions.oauth}); then starts the other nodes.
 */
export async function startKickInstallation(options: KickInstallationOptions): Promise<KickInstallation> {
  const redis = await startOwnRedis();
  const kick = await FakeKick.start();
  const twitchAccounts: TwitchAccount[] = Array.from({ length: options.twitch ?? 0 }, (_, i) => ({ login: `tw${i}`, id: String(800_000 + i) }));
  const helix = twitchAccounts.length > 0 ? await FakeHelix.start() : null;
  const irc = twitchAccounts.length > 0 ? await FakeIrcServer.start(Object.fromEntries(twitchAccounts.map((a) => [a.login, a.id]))) : null;
  const eventsub = twitchAccounts.length > 0 ? await FakeEventSubServer.start() : null;
  for (const a of twitchAccounts) helix?.addUser(a.login, a.id);
  const youtubeAccounts: YouTubeAccount[] = Array.from({ length: options.youtube ?? 0 }, (_, i) => ({ id: `UCovation${String(i).padStart(15, "0")}`, title: `Tuber${i}` }));
  const google = youtubeAccounts.length > 0 ? await FakeGoogle.start() : null;
  // A poll a second per channel (YouTube asks for one to a few seconds): the fake's default (50 ms) would load the two cores.
  if (google) google.pollingIntervalMillis = 1_000;
  for (const a of youtubeAccounts) google?.addChannel(a.id, a.title, true);
  const sender = new KickWebhookSender();
  kick.publicKeyPem = sender.publicKeyPem;
  const env: Record<string, string> = {
    OVATION_DATABASE_URL: await freshDatabase(),
    OVATION_REDIS_URL: redis.url,
    OVATION_PLUGINS: ["kick", ...(helix ? ["twitch"] : []), ...(google ? ["youtube"] : [])].join(","),
    ...(helix && irc && eventsub
      ? {
          ...twitchServerEnv({ helix, chat: irc, eventsub }),
          OVATION_TWITCH_AUTHORIZE_URL: `${helix.base}/oauth2/authorize`,
          // A verified bot's join rate: the joins of every node are counted together in Redis.
          OVATION_TWITCH_JOINS_PER_10S: "2000",
        }
      : {}),
    ...(google ? google.serverEnv() : {}),
    ...kick.serverEnv(),
    OVATION_KICK_AUTHORIZE_URL: kick.authorizeUrl,
    OVATION_KICK_WEBHOOK_PUBLIC_KEY: sender.publicKeyPem,
    OVATION_NODE_TTL_SECONDS: String(options.nodeTtlSeconds),
    OVATION_CHANNEL_LEASE_SECONDS: String(options.leaseSeconds),
    OVATION_RATE_LIMIT_PER_MINUTE: "100000",
  };
  const dirs: string[] = [];
  const nodes: NodeProcess[] = [];
  const accounts: KickAccount[] = [];
  const reader = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  reader.on("error", () => undefined);
  let seq = 0;
  // The answers by tag, indexed as they arrive (hundreds of channels chat for a while: a scan per look would not keep up).
  const kickAnswers = new AnswerIndex(() => kick.sent, (m) => m.content);
  const twitchAnswers = new AnswerIndex(() => irc?.received ?? [], (l) => l);
  const youtubeAnswers = new Map(youtubeAccounts.map((a) => [a.id, new AnswerIndex(() => google?.channels.find((c) => c.id === a.id)?.inserted ?? [], (t) => t)]));
  const launch = (name: string): Promise<NodeProcess> => {
    const dir = mkdtempSync(join(tmpdir(), `ovation-${name}-`));
    dirs.push(dir);
    // Three minutes: a node joining an installation of hundreds of channels on two busy cores starts slowly.
    return startNodeProcess(name, { ...env, OVATION_DATA_DIR: dir, OVATION_SERVER_ID: name }, 180_000);
  };
  const startNode = async (name: string): Promise<NodeProcess> => {
    const node = await launch(name);
    nodes.push(node);
    return node;
  };
  /** The user names of the channels of `plugin` a node serves, from its status in Redis. */
  const serving = async (node: string, plugin: string): Promise<Set<string>> => {
    if (reader.status === "wait") await reader.connect();
    const raw = await reader.get(NODE_STATUS_PREFIX + node);
    if (raw === null) return new Set();
    return new Set((JSON.parse(raw) as NodeStatus).channels.filter((c) => c.plugin === plugin && c.state === "serving").map((c) => c.username));
  };
  const live = () => nodes.filter((n) => n.child.exitCode === null && n.child.signalCode === null);
  const close = async () => {
    // OVATION_TEST_NODE_LOGS=<dir>: keep what each node printed (diagnosis of a failed run).
    const logs = process.env["OVATION_TEST_NODE_LOGS"];
    if (logs) for (const [i, node] of nodes.entries()) writeFileSync(join(logs, `${i}-${node.name}.log`), node.output());
    await Promise.all(nodes.map((node) => node.stop()));
    reader.disconnect();
    await kick.close();
    await irc?.close();
    await google?.close();
    await eventsub?.close();
    await helix?.close();
    await redis.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const a = await startNode("node-a");
    const token = /Personal access token[^\n]*\n\s+(\S+)/.exec(a.output())?.[1] ?? "";
    if (token === "") throw new Error(`node-a printed no token:\n${a.output()}`);
    const viaOAuth = Math.min(options.oauth ?? options.channels, options.channels);
    for (let i = 0; i < options.channels; i++) {
      const account = kick.addAccount(600_000 + i, `Kick${i}`);
      accounts.push({ user_id: account.user_id, name: account.name });
    }
    for (let i = 0; i < viaOAuth; i++) {
      const name = `streamer${i}`;
      const account = accounts[i]!;
      await callRunningServer(dirs[0]!, { op: "user.create", name });
      const created = { token: String(await callRunningServer(dirs[0]!, { op: "token.create", user: name, scopes: "*" })) };
      kick.nextAccount = account.user_id;
      const started = await api(a.url, "/api/users/@me/connections/kick/link", created.token, { method: "POST" });
      if (started.status !== 201) throw new Error(`link ${name}: ${started.status} ${JSON.stringify(started.body)}`);
      const browser = new TestBrowser();
      const done = await followAcross(browser, await confirmApiLink(browser, { url: String(started.body.url), code: String(started.body.code) }), "never://");
      const page = await done.response.text();
      if (!page.includes("Account linked")) throw new Error(`linking ${name} did not finish: ${page.slice(0, 300)}`);
      const tw = twitchAccounts[i];
      if (tw && helix) {
        helix.nextUser = tw.login;
        const linking = await api(a.url, "/api/users/@me/connections/twitch/link", created.token, { method: "POST" });
        if (linking.status !== 201) throw new Error(`link twitch ${name}: ${linking.status} ${JSON.stringify(linking.body)}`);
        const b = new TestBrowser();
        const linked = await followAcross(b, await confirmApiLink(b, { url: String(linking.body.url), code: String(linking.body.code) }), "never://");
        const text = await linked.response.text();
        if (!text.includes("Account linked")) throw new Error(`linking Twitch for ${name} did not finish: ${text.slice(0, 300)}`);
      }
    }
    // The other links as the link flow's last step writes them, from a store of our own on the same database.
    if (viaOAuth < options.channels || youtubeAccounts.length > 0) {
      const store = await Store.fromBackend(await PostgresBackend.open(env["OVATION_DATABASE_URL"]!));
      try {
        const repos = createRepositories(store);
        // Ids come in blocks the database reserves as they run out: a create meanwhile is refused, and tried again.
        const withIds = async <T>(create: () => T): Promise<T> => {
          for (let tries = 0; ; tries++) {
            try {
              return create();
            } catch (error) {
              if (tries > 200 || !/is reserved yet/.test(String(error))) throw error;
              await new Promise((r) => setTimeout(r, 50));
            }
          }
        };
        const link = async (userId: number, platform: string, platformUserId: string, username: string, tokens: { access_token: string | null; refresh_token: string; expires_at: number }) => {
          const connection = await withIds(() => repos.connections.upsert({ user_id: userId, platform, platform_user_id: platformUserId, username }));
          repos.connections.saveTokens(connection.id, { ...tokens, scopes: [...(defaultPlatformSettings(platform, { clientId: "x", clientSecret: "x" })?.scopes ?? [])] });
        };
        const users = new Map<number, number>();
        // YouTube channels go to streamers of these links (the first to streamer<viaOAuth>).
        for (let i = viaOAuth; i < Math.max(options.channels, viaOAuth + youtubeAccounts.length); i++) {
          const user = await withIds(() => repos.users.create({ name: `streamer${i}`, email: null }));
          users.set(i, user.id);
          const account = accounts[i];
          if (account) await link(user.id, "kick", String(account.user_id), account.name, { access_token: null, refresh_token: kick.accounts.find((a) => a.user_id === account.user_id)!.refreshToken, expires_at: 0 });
          const tw = twitchAccounts[i];
          if (tw && helix) {
            const issued = helix.issueTokens(tw.login, [...(defaultPlatformSettings("twitch", { clientId: "x", clientSecret: "x" })?.scopes ?? [])]);
            await link(user.id, "twitch", tw.id, tw.login, { access_token: issued.access_token, refresh_token: issued.refresh_token, expires_at: Date.now() + issued.expires_in * 1000 });
          }
        }
        for (const [i, yt] of youtubeAccounts.entries()) {
          await link(users.get(viaOAuth + i)!, "youtube", yt.id, yt.title, { access_token: null, refresh_token: google!.channels.find((c) => c.id === yt.id)!.refreshToken, expires_at: 0 });
        }
        await store.persisted();
      } finally {
        await store.close();
      }
    }
    // Started together (each waits mostly for its store and first steps), listed in the order named.
    const started = await Promise.allSettled(options.more.map(launch));
    for (const outcome of started) if (outcome.status === "fulfilled") nodes.push(outcome.value);
    const failed = started.find((outcome) => outcome.status === "rejected");
    if (failed) throw failed.reason;
    return {
      redis,
      kick,
      irc,
      twitchAccounts,
      google,
      youtubeAccounts,
      nodes,
      accounts,
      token,
      startNode,
      live,
      async servedByNode(via = live()[0]!) {
        const res = await fetch(`${via.url}/v1/plugins`, { headers: { authorization: `Bearer ${token}`, accept: "application/json" } });
        const body = (await res.json()) as { nodes?: Array<{ node: string; channel_counts: Record<string, Record<string, number>> }> };
        return Object.fromEntries((body.nodes ?? []).map((n) => [n.node, Object.values(n.channel_counts).reduce((sum, states) => sum + (states["serving"] ?? 0), 0)]));
      },
      async statesByNode() {
        const res = await fetch(`${live()[0]!.url}/v1/plugins`, { headers: { authorization: `Bearer ${token}`, accept: "application/json" } });
        const body = (await res.json()) as { nodes?: Array<{ node: string; channel_counts: Record<string, Record<string, number>> }> };
        return Object.fromEntries((body.nodes ?? []).map((n) => [n.node, Object.fromEntries(Object.entries(n.channel_counts).flatMap(([plugin, states]) => Object.entries(states).map(([state, count]) => [`${plugin} ${state}`, count])))]));
      },
      async notServing() {
        if (reader.status === "wait") await reader.connect();
        const found: Array<{ node: string; plugin: string; username: string; state: string; detail: string | null; since: number }> = [];
        for (const node of live()) {
          const raw = await reader.get(NODE_STATUS_PREFIX + node.name);
          if (raw === null) continue;
          for (const c of (JSON.parse(raw) as NodeStatus).channels) if (c.state !== "serving") found.push({ node: node.name, plugin: c.plugin, username: c.username, state: c.state, detail: c.detail, since: c.since });
        }
        return found;
      },
      async servedBy(node) {
        const names = await serving(node, "kick");
        return accounts.filter((a) => names.has(a.name));
      },
      async servedTwitchBy(node) {
        const names = await serving(node, "twitch");
        return twitchAccounts.filter((a) => names.has(a.login));
      },
      async line(account, node) {
        const tag = `l${++seq}x${account.user_id}`;
        const fixture: WebhookFixture = webhookEvent("chat-command");
        const body = structuredClone(fixture.body);
        body.broadcaster = { ...(body.broadcaster as Record<string, unknown>), user_id: account.user_id, username: account.name, channel_slug: account.name.toLowerCase() };
        sender.url = `${node.url}/v1/platforms/kick/webhook`;
        const sent = await sender.send({ ...fixture, body: { ...body, message_id: `m-${tag}`, content: `!help ${tag}` } });
        if (sent.status !== 200) throw new Error(`webhook to ${node.name} answered ${sent.status}: ${sent.answer}`);
        return tag;
      },
      answers: (tag) => kickAnswers.of(tag),
      twitchLine(account) {
        const tag = `t${++seq}x${account.id}`;
        irc?.publish(account.login, privmsgLine(account.login, account.id, randomUUID(), `!help ${tag}`, "viewer"));
        return tag;
      },
      async servedYouTubeBy(node) {
        const names = await serving(node, "youtube");
        return youtubeAccounts.filter((a) => names.has(a.title));
      },
      youtubeLine(account) {
        const tag = `y${++seq}x${account.id.slice(-4)}`;
        const message = chatMessage("hug-command");
        const snippet = message.snippet as Record<string, unknown>;
        snippet.displayMessage = `!help ${tag}`;
        (snippet.textMessageDetails as Record<string, unknown>).messageText = `!help ${tag}`;
        google?.publishTo(account.id, message);
        return tag;
      },
      youtubeAnswers: (tag, account) => youtubeAnswers.get(account.id)?.of(tag).length ?? 0,
      twitchAnswers: (tag, account) => twitchAnswers.of(tag).filter((l) => l.startsWith(`PRIVMSG #${account.login} :`)).length,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The bot's answers ("There is no command !<tag>.") of a growing list, by tag: each look indexes only
 * what arrived since the last.
 */
class AnswerIndex<T> {
  readonly #byTag = new Map<string, T[]>();
  #seen = 0;

  constructor(
    private readonly list: () => readonly T[],
    private readonly text: (item: T) => string,
  ) {}

  of(tag: string): T[] {
    const all = this.list();
    for (; this.#seen < all.length; this.#seen++) {
      const item = all[this.#seen]!;
      const found = /!([a-z]\d+x\w+)\./.exec(this.text(item))?.[1];
      if (found !== undefined) this.#byTag.set(found, [...(this.#byTag.get(found) ?? []), item]);
    }
    return this.#byTag.get(tag) ?? [];
  }
}

/** The sum of a per-node count. */
export const total = (counts: Record<string, number>): number => Object.values(counts).reduce((a, b) => a + b, 0);
