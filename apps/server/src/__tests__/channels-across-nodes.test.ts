import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { FakeKick, KickWebhookSender, webhookEvent } from "@ovation/plugin-kick/testing";
import type { WebhookFixture } from "@ovation/plugin-kick/testing";
import { callRunningServer } from "../cli/admin-client.js";
import { TestBrowser, followAcross } from "../identity/__tests__/browser.js";
import { api, confirmApiLink } from "../identity/__tests__/oauth-helpers.js";
import { startNodeProcess } from "./node-process.js";
import type { NodeProcess } from "./node-process.js";
import { freshDatabase } from "./services/postgres.js";
import { startOwnRedis } from "./services/redis.js";
import type { OwnRedis } from "./services/redis.js";
import { waitFor } from "./socket-helpers.js";

// Channels across nodes: `ovation start` processes on one PostgreSQL and one Redis serve many
// linked Kick channels (the fake Kick's OAuth, API and signed webhooks), each channel by exactly one
// node. Webhooks are posted to any node (the receiving node claims the delivery, then relays it to
// the node serving the channel); every chat line is answered once, in its own channel. A node is
// SIGKILLed during chat, another joins, Redis restarts: the channels keep being answered, never twice.
// Kick alone (webhooks are what may reach any node); 60 channels keep this within the CI's two cores.

const CHANNELS = 60;
const LEASE_SECONDS = 3;
const NODE_TTL_SECONDS = 2;
const dirs: string[] = [];
const nodes: NodeProcess[] = [];
let redis: OwnRedis;
let kick: FakeKick;
let sender: KickWebhookSender;
let env: Record<string, string>;
let token = "";
const accounts: { user_id: number; name: string }[] = [];
let lineSeq = 0;

interface NodeSummary {
  node: string;
  channel_counts: Record<string, Record<string, number>>;
  waiting: number;
  lag_ms: number;
  last_error: string | null;
}

async function startNode(name: string): Promise<NodeProcess> {
  const dir = mkdtempSync(join(tmpdir(), `ovation-${name}-`));
  dirs.push(dir);
  const node = await startNodeProcess(name, { ...env, OVATION_DATA_DIR: dir, OVATION_SERVER_ID: name });
  nodes.push(node);
  return node;
}

const live = () => nodes.filter((n) => n.child.exitCode === null && n.child.signalCode === null);

/** The serving count of each node, as any live node's `GET /v1/plugins` reports it. */
async function servedByNode(via: NodeProcess = live()[0]!): Promise<Record<string, number>> {
  const res = await fetch(`${via.url}/v1/plugins`, { headers: { authorization: `Bearer ${token}`, accept: "application/json" } });
  const body = (await res.json()) as { nodes: NodeSummary[] };
  return Object.fromEntries(body.nodes.map((n) => [n.node, n.channel_counts["kick"]?.["serving"] ?? 0]));
}

const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

/** A `!help <tag>` chat line of `account`, posted to `node`: the bot answers "There is no command !<tag>." once. */
async function line(account: { user_id: number; name: string }, node: NodeProcess): Promise<string> {
  const tag = `l${++lineSeq}x${account.user_id}`;
  const fixture: WebhookFixture = webhookEvent("chat-command");
  const body = structuredClone(fixture.body);
  body.broadcaster = { ...(body.broadcaster as Record<string, unknown>), user_id: account.user_id, username: account.name, channel_slug: account.name.toLowerCase() };
  sender.url = `${node.url}/v1/platforms/kick/webhook`;
  const sent = await sender.send({ ...fixture, body: { ...body, message_id: `m-${tag}`, content: `!help ${tag}` } });
  expect(sent.status).toBe(200);
  return tag;
}

/** How many answers the fake Kick got for a line, and in which channels. */
const answers = (tag: string) => kick.sent.filter((m) => m.content.includes(`!${tag}.`));
const answeredOnce = (tag: string, account: { user_id: number }) => {
  const found = answers(tag);
  return found.length === 1 && found[0]!.broadcaster_user_id === account.user_id;
};

beforeAll(async () => {
  redis = await startOwnRedis();
  kick = await FakeKick.start();
  sender = new KickWebhookSender();
  kick.publicKeyPem = sender.publicKeyPem;
  env = {
    OVATION_DATABASE_URL: await freshDatabase(),
    OVATION_REDIS_URL: redis.url,
    OVATION_PLUGINS: "kick",
    ...kick.serverEnv(),
    OVATION_KICK_AUTHORIZE_URL: kick.authorizeUrl,
    OVATION_KICK_WEBHOOK_PUBLIC_KEY: sender.publicKeyPem,
    OVATION_NODE_TTL_SECONDS: String(NODE_TTL_SECONDS),
    OVATION_CHANNEL_LEASE_SECONDS: String(LEASE_SECONDS),
    OVATION_RATE_LIMIT_PER_MINUTE: "100000",
  };
  const a = await startNode("node-a");
  token = /Personal access token[^\n]*\n\s+(\S+)/.exec(a.output())?.[1] ?? "";
  expect(token).not.toBe("");
  // Streamers made through node-a's admin socket (as `ovation user create` does), each linking their Kick channel.
  for (let i = 0; i < CHANNELS; i++) {
    const name = `streamer${i}`;
    const account = kick.addAccount(600_000 + i, `Kick${i}`);
    accounts.push(account);
    await callRunningServer(dirs[0]!, { op: "user.create", name });
    const created = (await callRunningServer(dirs[0]!, { op: "token.create", user: name, scopes: "*" })) as { token: string };
    kick.nextAccount = account.user_id;
    const started = await api(a.url, "/api/users/@me/connections/kick/link", created.token, { method: "POST" });
    expect(started.status).toBe(201);
    const browser = new TestBrowser();
    const done = await followAcross(browser, await confirmApiLink(browser, { url: String(started.body.url), code: String(started.body.code) }), "never://");
    expect(await done.response.text()).toContain("Account linked");
  }
  await startNode("node-b");
  await startNode("node-c");
}, 300_000);

afterAll(async () => {
  await Promise.all(nodes.map((node) => node.stop()));
  await kick?.close();
  await redis?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 90_000);

describe(`${CHANNELS} Kick channels on three ovation start processes, one PostgreSQL, one Redis`, () => {
  test("every channel is served by exactly one node, each node a share; every line, posted to any node, is answered once in its channel", async () => {
    await waitFor(async () => {
      await new Promise((r) => setTimeout(r, 250));
      const counts = await servedByNode();
      return total(counts) === CHANNELS && Object.keys(counts).length === 3 && Object.values(counts).every((n) => n > 0);
    }, 30_000, "the channels spread over the three nodes");
    const counts = await servedByNode(nodes[2]);
    expect(Object.keys(counts).sort()).toEqual(["node-a", "node-b", "node-c"]);
    expect(total(counts)).toBe(CHANNELS);

    const tags = new Map<string, { user_id: number }>();
    for (const [i, account] of accounts.entries()) tags.set(await line(account, nodes[i % 3]!), account);
    await waitFor(() => [...tags.keys()].every((tag) => answers(tag).length > 0), 30_000, "an answer to every line");
    // Answers still on their way would show as a second one.
    await new Promise((r) => setTimeout(r, 1_000));
    for (const [tag, account] of tags) expect(answeredOnce(tag, account), `line ${tag}`).toBe(true);
  }, 90_000);

  test(`a node SIGKILLed during chat: its channels are answered by the others within the lease lifetime + 5 s, no line twice`, async () => {
    const [a, b, c] = nodes as [NodeProcess, NodeProcess, NodeProcess];
    const before = await servedByNode();
    expect(before["node-c"]).toBeGreaterThan(0);
    const survivors = [a, b];
    const sent: Array<{ tag: string; account: { user_id: number }; at: number }> = [];
    // Chat on every channel, through the survivors, before and after the kill.
    const round = async () => {
      for (const [i, account] of accounts.entries()) sent.push({ tag: await line(account, survivors[i % 2]!), account, at: Date.now() });
    };
    await round();
    await c.kill();
    const killedAt = Date.now();
    const deadline = killedAt + (LEASE_SECONDS + 5) * 1000;
    // Lines sent while the dead node's leases live reach nobody (the relay finds no subscriber): they
    // go unanswered, never twice. Keep chatting until every channel answered a line sent after the kill.
    const resumed = () => new Set(sent.filter((s) => s.at > killedAt && answers(s.tag).length > 0).map((s) => s.account.user_id));
    while (Date.now() < deadline + 3_000 && resumed().size < accounts.length) {
      await round();
      await new Promise((r) => setTimeout(r, 300));
    }
    await new Promise((r) => setTimeout(r, 2_000));
    // Every channel answered a line sent within the lease lifetime + 5 s of the kill.
    const inTime = new Set(sent.filter((s) => s.at > killedAt && s.at <= deadline && answers(s.tag).length > 0).map((s) => s.account.user_id));
    expect(accounts.filter((a) => !inTime.has(a.user_id)).map((a) => a.name)).toEqual([]);
    for (const s of sent) expect(answers(s.tag).length, `line ${s.tag}`).toBeLessThanOrEqual(1);
    for (const s of sent) for (const m of answers(s.tag)) expect(m.broadcaster_user_id).toBe(s.account.user_id);
    const after = await servedByNode();
    expect(Object.keys(after).sort()).toEqual(["node-a", "node-b"]);
    expect(total(after)).toBe(CHANNELS);
  }, 120_000);

  test("a node joining takes a share of the channels", async () => {
    await startNode("node-d");
    await waitFor(async () => {
      await new Promise((r) => setTimeout(r, 250));
      const counts = await servedByNode();
      return (counts["node-d"] ?? 0) > 0 && total(counts) === CHANNELS;
    }, 30_000, "node-d serves a share");
    const tags = new Map<string, { user_id: number }>();
    for (const account of accounts) tags.set(await line(account, nodes[3]!), account);
    await waitFor(() => [...tags.keys()].every((tag) => answers(tag).length > 0), 30_000, "an answer to every line");
    await new Promise((r) => setTimeout(r, 1_000));
    for (const [tag, account] of tags) expect(answeredOnce(tag, account), `line ${tag}`).toBe(true);
  }, 90_000);

  test("after a Redis restart the assignment recovers: every channel served once, every line answered once", async () => {
    await redis.kill();
    await new Promise((r) => setTimeout(r, 1_000));
    await redis.start();
    await waitFor(async () => {
      try {
        await new Promise((r) => setTimeout(r, 250));
        const counts = await servedByNode();
        return total(counts) === CHANNELS && Object.keys(counts).length === 3 && Object.values(counts).every((n) => n > 0);
      } catch {
        return false;
      }
    }, 45_000, "the channels spread again after the restart");
    const tags = new Map<string, { user_id: number }>();
    for (const [i, account] of accounts.entries()) tags.set(await line(account, live()[i % 3]!), account);
    await waitFor(() => [...tags.keys()].every((tag) => answers(tag).length > 0), 30_000, "an answer to every line");
    await new Promise((r) => setTimeout(r, 1_000));
    for (const [tag, account] of tags) expect(answeredOnce(tag, account), `line ${tag}`).toBe(true);
    for (const node of live()) expect((await fetch(`${node.url}/health`)).status).toBe(200);
  }, 120_000);
});
