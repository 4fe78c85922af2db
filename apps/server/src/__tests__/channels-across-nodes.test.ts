import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startKickInstallation, total } from "./kick-installation.js";
import type { KickAccount, KickInstallation, TwitchAccount, YouTubeAccount } from "./kick-installation.js";
import type { NodeProcess } from "./node-process.js";
import { waitFor } from "./socket-helpers.js";

// Channels across nodes: `ovation start` processes on one PostgreSQL and one Redis serve many
// linked channels, each by exactly one node: Kick channels (the fake Kick's OAuth, API and signed
// webhooks, posted to any node: the receiving node claims the delivery, then relays it to the node
// serving the channel), Twitch channels (the fake Helix, EventSub and IRC servers; the bot's IRC
// connection of each node joins only that node's channels) and live YouTube channels (the fake
// Google: the node serving a channel polls its chat). Every chat line is answered once, in its own
// channel. A node is SIGKILLed during chat, another joins, Redis restarts: the channels keep being
// answered, never twice. The first few streamers link Kick and Twitch through the real OAuth flow,
// the others' links are written through the store as the flow's last step writes them (what is
// under test is serving them, and 300 browser round trips would take minutes on two cores).

// The issue's 300 channels (150 Kick, 100 Twitch, 50 YouTube); OVATION_TEST_CHANNELS_SMALL=1 runs 50
// (30, 10, 10) for a quick look. On the shared 2-core machine the 300 passed in 80 s at a load
// average of 5 to 10; at 15 to 40 they did not (before channel sync served refused channels again,
// and with the fakes, all in this process, answering too late: see docs/deployment.md).
const SMALL = process.env["OVATION_TEST_CHANNELS_SMALL"] === "1";
const KICK = SMALL ? 30 : 150;
const TWITCH = SMALL ? 10 : 100;
const YOUTUBE = SMALL ? 10 : 50;
const OAUTH = 4;
const CHANNELS = KICK + TWITCH + YOUTUBE;
const LEASE_SECONDS = 3;
let install: KickInstallation;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * For a failure: each node's channels by state, and the first channels not serving with how long
 * they have been so; for a Twitch channel also every JOIN and PART the fake IRC server answered for
 * it, by connection ("JOIN?": no such room, left unanswered).
 */
async function stateReport(): Promise<string> {
  const now = Date.now();
  const stuck = await install.notServing().catch(() => []);
  const ago = (at: number) => `${((now - at) / 1000).toFixed(1)} s`;
  const lines = stuck.slice(0, 15).map((c) => {
    const irc = c.plugin === "twitch" ? install.irc?.membership.filter((m) => m.channel === c.username) ?? [] : [];
    const heard = irc.length > 0 ? `; fake IRC: ${irc.map((m) => `${m.command}${m.command === "JOIN" && !m.joined ? "?" : ""} c${m.connection} ${ago(m.at)} ago`).join(", ")}` : "";
    return `${c.node} ${c.plugin} ${c.username} ${c.state} for ${ago(c.since)} (${c.detail ?? ""})${heard}`;
  });
  return `by state: ${JSON.stringify(await install.statesByNode().catch(() => null))}; ${stuck.length} not serving${lines.length > 0 ? `: ${lines.join(" | ")}` : ""}`;
}

/** Waits until every channel is served, by exactly `nodes` nodes, each serving some. */
async function spread(nodes: number, timeoutMs: number, what: string): Promise<Record<string, number>> {
  let counts: Record<string, number> = {};
  try {
    await waitFor(async () => {
      await pause(250);
      counts = await install.servedByNode().catch(() => ({}));
      return total(counts) === CHANNELS && Object.keys(counts).length === nodes && Object.values(counts).every((n) => n > 0);
    }, timeoutMs, what);
  } catch (error) {
    throw new Error(`${(error as Error).message}; channels serving by node: ${JSON.stringify(counts)}; ${await stateReport()}`, { cause: error });
  }
  return counts;
}

/** How many answers each line of {@link everyChannelAnsweredOnce} has, by tag (checked again at the end of the file: a late second answer shows there). */
const answeredOnce: Array<() => Array<[string, number]>> = [];

/** One line per channel (Kick lines posted round robin to `via`, all at once); resolves once each has an answer, then checks each has exactly one, in its channel. */
async function everyChannelAnsweredOnce(via: readonly NodeProcess[]): Promise<void> {
  const tags = new Map<string, KickAccount>(await Promise.all(install.accounts.map(async (account, i) => [await install.line(account, via[i % via.length]!), account] as const)));
  const twitch = new Map<string, TwitchAccount>(install.twitchAccounts.map((account) => [install.twitchLine(account), account]));
  const youtube = new Map<string, YouTubeAccount>(install.youtubeAccounts.map((account) => [install.youtubeLine(account), account]));
  const unanswered = () => [
    ...[...tags].filter(([tag]) => install.answers(tag).length === 0).map(([tag, account]) => `${tag} (kick ${account.name})`),
    ...[...twitch].filter(([tag, account]) => install.twitchAnswers(tag, account) === 0).map(([tag, account]) => `${tag} (twitch ${account.login})`),
    ...[...youtube].filter(([tag, account]) => install.youtubeAnswers(tag, account) === 0).map(([tag, account]) => `${tag} (youtube ${account.title})`),
  ];
  try {
    await waitFor(() => unanswered().length === 0, 60_000, "an answer to every line");
  } catch (error) {
    // Which lines, and who serves their channels now: a lost line and a slow one look different.
    const missing = unanswered();
    throw new Error(`${(error as Error).message}: ${missing.length} unanswered: ${missing.slice(0, 20).join(", ")}; channels serving by node: ${JSON.stringify(await install.servedByNode().catch(() => null))}; ${await stateReport()}`, { cause: error });
  }
  for (const [tag, account] of tags) {
    const found = install.answers(tag);
    expect(found.length, `answers to ${tag}`).toBe(1);
    expect(found[0]!.broadcaster_user_id).toBe(account.user_id);
  }
  for (const [tag, account] of twitch) expect(install.twitchAnswers(tag, account), `answers to ${tag}`).toBe(1);
  for (const [tag, account] of youtube) expect(install.youtubeAnswers(tag, account), `answers to ${tag}`).toBe(1);
  answeredOnce.push(() => [
    ...[...tags.keys()].map((tag): [string, number] => [tag, install.answers(tag).length]),
    ...[...twitch].map(([tag, account]): [string, number] => [tag, install.twitchAnswers(tag, account)]),
    ...[...youtube].map(([tag, account]): [string, number] => [tag, install.youtubeAnswers(tag, account)]),
  ]);
}

beforeAll(async () => {
  install = await startKickInstallation({ channels: KICK, twitch: TWITCH, youtube: YOUTUBE, oauth: OAUTH, leaseSeconds: LEASE_SECONDS, nodeTtlSeconds: 2, more: ["node-b", "node-c"] });
}, 600_000);

afterAll(async () => {
  await install?.close();
}, 90_000);

describe(`${CHANNELS} Kick, Twitch and YouTube channels on three ovation start processes, one PostgreSQL, one Redis`, () => {
  test("every channel is served by exactly one node, each node a share; every line, posted to any node, is answered once in its channel", async () => {
    await spread(3, 90_000, "the channels spread over the three nodes");
    const counts = await install.servedByNode(install.nodes[2]);
    expect(Object.keys(counts).sort()).toEqual(["node-a", "node-b", "node-c"]);
    expect(total(counts)).toBe(CHANNELS);
    // The nodes' own lists of what they serve do not overlap and cover every channel.
    const lists = await Promise.all(
      ["node-a", "node-b", "node-c"].map(async (n) => [
        ...(await install.servedBy(n)).map((a) => a.name),
        ...(await install.servedTwitchBy(n)).map((a) => a.login),
        ...(await install.servedYouTubeBy(n)).map((a) => a.title),
      ]),
    );
    const names = lists.flat();
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBe(CHANNELS);
    // Each node's bot connection joined only the Twitch channels that node serves (none twice).
    const joins = (install.irc?.received ?? []).filter((l) => l.startsWith("JOIN ")).flatMap((l) => l.slice(5).split(","));
    expect(new Set(joins).size).toBe(TWITCH);
    await everyChannelAnsweredOnce(install.nodes);
  }, 180_000);

  test("a node SIGKILLed during chat: its channels are answered by the others within the lease lifetime + 5 s, no line twice", async () => {
    const [a, b, c] = install.nodes as [NodeProcess, NodeProcess, NodeProcess];
    const orphans = [
      ...(await install.servedBy("node-c")).map((acc) => `kick:${acc.user_id}`),
      ...(await install.servedTwitchBy("node-c")).map((acc) => `twitch:${acc.id}`),
      ...(await install.servedYouTubeBy("node-c")).map((acc) => `youtube:${acc.id}`),
    ];
    expect(orphans.length).toBeGreaterThan(0);
    const survivors = [a, b];
    const sentKick: Array<{ tag: string; account: KickAccount; at: number }> = [];
    const sentTwitch: Array<{ tag: string; account: TwitchAccount; at: number }> = [];
    const sentYouTube: Array<{ tag: string; account: YouTubeAccount; at: number }> = [];
    // A round chats on the channels not yet resumed (all of them before the kill).
    const round = async () => {
      const wanted = (key: string) => !resumedAt.has(key);
      await Promise.all(
        install.accounts.map(async (account, i) => {
          if (wanted(`kick:${account.user_id}`)) sentKick.push({ tag: await install.line(account, survivors[i % 2]!), account, at: Date.now() });
        }),
      );
      for (const account of install.twitchAccounts) if (wanted(`twitch:${account.id}`)) sentTwitch.push({ tag: install.twitchLine(account), account, at: Date.now() });
      for (const account of install.youtubeAccounts) if (wanted(`youtube:${account.id}`)) sentYouTube.push({ tag: install.youtubeLine(account), account, at: Date.now() });
    };
    // When each channel first answered a line sent after the kill, watched every 50 ms.
    const resumedAt = new Map<string, number>();
    await round();
    await c.kill();
    const killedAt = Date.now();
    const deadline = killedAt + (LEASE_SECONDS + 5) * 1000;
    const watch = setInterval(() => {
      for (const s of sentKick) if (s.at > killedAt && !resumedAt.has(`kick:${s.account.user_id}`) && install.answers(s.tag).length > 0) resumedAt.set(`kick:${s.account.user_id}`, Date.now());
      for (const s of sentTwitch) if (s.at > killedAt && !resumedAt.has(`twitch:${s.account.id}`) && install.twitchAnswers(s.tag, s.account) > 0) resumedAt.set(`twitch:${s.account.id}`, Date.now());
      for (const s of sentYouTube) if (s.at > killedAt && !resumedAt.has(`youtube:${s.account.id}`) && install.youtubeAnswers(s.tag, s.account) > 0) resumedAt.set(`youtube:${s.account.id}`, Date.now());
    }, 50);
    try {
      // Kick lines sent while the dead node's leases live wait on the node they reached for the
      // channel's next owner (the relay, up to a lease lifetime and two steps; one whose wait ends
      // first goes unanswered); Twitch lines wait for the next JOIN of their channel. Chat on
      // every channel until each answered a line sent after the kill.
      while (Date.now() < deadline + 5_000 && resumedAt.size < CHANNELS) {
        await round();
        await pause(300);
      }
      await pause(2_000);
    } finally {
      clearInterval(watch);
    }
    const late = [...orphans].filter((key) => !resumedAt.has(key) || resumedAt.get(key)! > deadline);
    expect(late, "channels of the killed node not answered within the lease lifetime + 5 s").toEqual([]);
    expect(resumedAt.size).toBe(CHANNELS);
    for (const s of sentKick) {
      const found = install.answers(s.tag);
      expect(found.length, `answers to ${s.tag}`).toBeLessThanOrEqual(1);
      for (const m of found) expect(m.broadcaster_user_id).toBe(s.account.user_id);
    }
    for (const s of sentTwitch) expect(install.twitchAnswers(s.tag, s.account), `answers to ${s.tag}`).toBeLessThanOrEqual(1);
    for (const s of sentYouTube) expect(install.youtubeAnswers(s.tag, s.account), `answers to ${s.tag}`).toBeLessThanOrEqual(1);
    const after = await spread(2, 45_000, "the channels on the two survivors");
    expect(Object.keys(after).sort()).toEqual(["node-a", "node-b"]);
  }, 180_000);

  test("a node joining takes a share of the channels", async () => {
    const d = await install.startNode("node-d");
    const counts = await spread(3, 60_000, "node-d serves a share");
    expect(counts["node-d"]).toBeGreaterThan(0);
    await everyChannelAnsweredOnce([d]);
  }, 180_000);

  test("after a Redis restart the assignment recovers: every channel served once, every line answered once", async () => {
    await install.redis.kill();
    await pause(1_000);
    await install.redis.start();
    await spread(3, 90_000, "the channels spread again after the restart");
    await everyChannelAnsweredOnce(install.live());
    for (const node of install.live()) expect((await fetch(`${node.url}/health`)).status).toBe(200);
    // An answer still on its way would show as a second one: every line of the file, once more, after a second.
    await pause(1_000);
    const twice = answeredOnce.flatMap((counts) => counts()).filter(([, n]) => n !== 1);
    expect(twice, "lines not answered exactly once by the end of the file").toEqual([]);
  }, 180_000);
});
