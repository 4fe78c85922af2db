import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { FakeKick, KickWebhookSender, webhookEvent } from "@ovation/plugin-kick/testing";
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

/** An installation of `ovation start` processes on one PostgreSQL and one Redis serving linked Kick channels of the fake Kick. */
export interface KickInstallation {
  readonly redis: OwnRedis;
  readonly kick: FakeKick;
  readonly nodes: NodeProcess[];
  readonly accounts: KickAccount[];
  /** The first user's personal access token (from node-a's quick start). */
  readonly token: string;
  /** Starts one more node (data directory of its own, same store, Redis and plugins). */
  startNode(name: string): Promise<NodeProcess>;
  /** The nodes whose process still runs. */
  live(): NodeProcess[];
  /** How many Kick channels each node serves, from `GET /v1/plugins` of `via` (default the first live node). */
  servedByNode(via?: NodeProcess): Promise<Record<string, number>>;
  /** The Kick accounts a node serves, from the status it wrote to Redis. */
  servedBy(node: string): Promise<KickAccount[]>;
  /** Posts a signed `!help <tag>` chat line of `account` to `node`'s webhook; the bot answers "There is no command !<tag>." once. */
  line(account: KickAccount, node: NodeProcess): Promise<string>;
  /** The answers the fake Kick got for a line. */
  answers(tag: string): SentChat[];
  close(): Promise<void>;
}

/** Options of {@link startKickInstallation}. */
export interface KickInstallationOptions {
  channels: number;
  leaseSeconds: number;
  nodeTtlSeconds: number;
  /** Node names started after the links are made (node-a, which makes them, is always first). */
  more: string[];
}

/**
 * Starts Redis, PostgreSQL (a fresh database), the fake Kick and node-a; creates `channels`
 * streamers through node-a's admin socket (as `ovation user create` does), each linking a Kick
 * account of the fake through the link flow; then starts the other nodes.
 */
export async function startKickInstallation(options: KickInstallationOptions): Promise<KickInstallation> {
  const redis = await startOwnRedis();
  const kick = await FakeKick.start();
  const sender = new KickWebhookSender();
  kick.publicKeyPem = sender.publicKeyPem;
  const env: Record<string, string> = {
    OVATION_DATABASE_URL: await freshDatabase(),
    OVATION_REDIS_URL: redis.url,
    OVATION_PLUGINS: "kick",
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
  const live = () => nodes.filter((n) => n.child.exitCode === null && n.child.signalCode === null);
  const close = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    reader.disconnect();
    await kick.close();
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
      const created = (await callRunningServer(dirs[0]!, { op: "token.create", user: name, scopes: "*" })) as { token: string };
      kick.nextAccount = account.user_id;
      const started = await api(a.url, "/api/users/@me/connections/kick/link", created.token, { method: "POST" });
      if (started.status !== 201) throw new Error(`link ${name}: ${started.status} ${JSON.stringify(started.body)}`);
      const browser = new TestBrowser();
      const done = await followAcross(browser, await confirmApiLink(browser, { url: String(started.body.url), code: String(started.body.code) }), "never://");
      const page = await done.response.text();
      if (!page.includes("Account linked")) throw new Error(`linking ${name} did not finish: ${page.slice(0, 300)}`);
    }
    for (const name of options.more) await startNode(name);
    return {
      redis,
      kick,
      nodes,
      accounts,
      token,
      startNode,
      live,
      async servedByNode(via = live()[0]!) {
        const res = await fetch(`${via.url}/v1/plugins`, { headers: { authorization: `Bearer ${token}`, accept: "application/json" } });
        const body = (await res.json()) as { nodes?: Array<{ node: string; channel_counts: Record<string, Record<string, number>> }> };
        return Object.fromEntries((body.nodes ?? []).map((n) => [n.node, n.channel_counts["kick"]?.["serving"] ?? 0]));
      },
      async servedBy(node) {
        if (reader.status === "wait") await reader.connect();
        const raw = await reader.get(NODE_STATUS_PREFIX + node);
        if (raw === null) return [];
        const names = new Set((JSON.parse(raw) as NodeStatus).channels.filter((c) => c.state === "serving").map((c) => c.username));
        return accounts.filter((a) => names.has(a.name));
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
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The sum of a per-node count. */
export const total = (counts: Record<string, number>): number => Object.values(counts).reduce((a, b) => a + b, 0);
