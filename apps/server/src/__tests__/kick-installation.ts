import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { FakeKick, KickWebhookSender, webhookEvent } from "@ovation/plugin-kick/testing";
import { FakeEventSubServer, FakeHelix, FakeIrcServer, privmsgLine, twitchServerEnv } from "@ovation/plugin-twitch/testing";
import type { SentChat, WebhookFixture } from "@ovation/plugin-kick/testing";
import { callRunningServer } from "../cli/admin-client.js";
import { TestBrowser, followAcross } from "../identity/__tests__/browser.js";
import { api, confirmApiLink } from "../identity/__tests__/oauth-helpers.js";
import { NODE_STATUS_PREFIX } from "../redis/node-status.js";
import type { NodeStatus } from "../redis/node-status.js";
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

/**
 * An installation of `ovation start` processes on one PostgreSQL and one Redis serving linked Kick
 * channels of the fake Kick (and, with `twitch`, linked Twitch channels of the fake Helix, IRC and
 * EventSub servers, answered by the operator's bot account over one IRC connection per node).
 */
export interface KickInstallation {
  readonly redis: OwnRedis;
  readonly kick: FakeKick;
  readonly irc: FakeIrcServer | null;
  readonly twitchAccounts: TwitchAccount[];
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
  /** The Kick accounts a node serves, from the status it wrote to Redis. */
  servedBy(node: string): Promise<KickAccount[]>;
  /** The Twitch accounts a node serves, from the status it wrote to Redis. */
  servedTwitchBy(node: string): Promise<TwitchAccount[]>;
  /** Posts a signed `!help <tag>` chat line of `account` to `node`'s webhook; the bot answers "There is no command !<tag>." once. */
  line(account: KickAccount, node: NodeProcess): Promise<string>;
  /** The answers the fake Kick got for a line. */
  answers(tag: string): SentChat[];
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
}

/**
 * Starts Redis, PostgreSQL (a fresh database), the fake Kick and node-a; creates `channels`
 * streamers through node-a's admin socket (as `ovation user create` does), each linking a Kick
 * account of the fake through the link flow; then starts the other nodes.
 */
export async function startKickInstallation(options: KickInstallationOptions): Promise<KickInstallation> {
  const redis = await startOwnRedis();
  const kick = await FakeKick.start();
  const twitchAccounts: TwitchAccount[] = Array.from({ length: options.twitch ?? 0 }, (_, i) => ({ login: `tw${i}`, id: String(800_000 + i) }));
  const helix = twitchAccounts.length > 0 ? await FakeHelix.start() : null;
  const irc = twitchAccounts.length > 0 ? await FakeIrcServer.start(Object.fromEntries(twitchAccounts.map((a) => [a.login, a.id]))) : null;
  const eventsub = twitchAccounts.length > 0 ? await FakeEventSubServer.start() : null;
  for (const a of twitchAccounts) helix?.addUser(a.login, a.id);
  const sender = new KickWebhookSender();
  kick.publicKeyPem = sender.publicKeyPem;
  const env: Record<string, string> = {
    OVATION_DATABASE_URL: await freshDatabase(),
    OVATION_REDIS_URL: redis.url,
    OVATION_PLUGINS: helix ? "kick,twitch" : "kick",
    ...(helix && irc && eventsub
      ? {
          ...twitchServerEnv({ helix, chat: irc, eventsub }),
          OVATION_TWITCH_AUTHORIZE_URL: `${helix.base}/oauth2/authorize`,
          // A verified bot's join rate: the joins of every node are counted together in Redis.
          OVATION_TWITCH_JOINS_PER_10S: "2000",
        }
      : {}),
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
  const startNode = async (name: string): Promise<NodeProcess> => {
    const dir = mkdtempSync(join(tmpdir(), `ovation-${name}-`));
    dirs.push(dir);
    const node = await startNodeProcess(name, { ...env, OVATION_DATA_DIR: dir, OVATION_SERVER_ID: name });
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
    await eventsub?.close();
    await helix?.close();
    await redis.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const a = await startNode("node-a");
    const token = /Personal access token[^\n]*\n\s+(\S+)/.exec(a.output())?.[1] ?? "";
    if (token === "") throw new Error(`node-a printed no token:\n${a.output()}`);
    for (let i = 0; i < options.channels; i++) {
      const name = `streamer${i}`;
      const account = kick.addAccount(600_000 + i, `Kick${i}`);
      accounts.push({ user_id: account.user_id, name: account.name });
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
    for (const name of options.more) await startNode(name);
    return {
      redis,
      kick,
      irc,
      twitchAccounts,
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
      answers: (tag) => kick.sent.filter((m) => m.content.includes(`!${tag}.`)),
      twitchLine(account) {
        const tag = `t${++seq}x${account.id}`;
        irc?.publish(account.login, privmsgLine(account.login, account.id, randomUUID(), `!help ${tag}`, "viewer"));
        return tag;
      },
      twitchAnswers: (tag, account) => (irc?.received ?? []).filter((l) => l.startsWith(`PRIVMSG #${account.login} :`) && l.includes(`!${tag}.`)).length,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The sum of a per-node count. */
export const total = (counts: Record<string, number>): number => Object.values(counts).reduce((a, b) => a + b, 0);
