import { describe, expect, it } from "vitest";
import { JoinQueue } from "@ovation/plugin-twitch";
import { ProjectQuota, QuotaBudget, pacificDay } from "@ovation/plugin-youtube";
import { useRedisClients } from "../../__tests__/services/redis.js";
import { waitFor } from "../../__tests__/socket-helpers.js";
import { SharedQuota } from "../shared-quota.js";

// Twitch counts the bot account's JOINs, not each connection's: three nodes' join queues share one
// sliding window in a real Redis, so together they never join more than the limit in any window.
// YouTube's daily quota is the project's: two nodes' channels count their units in one counter and
// divide the quota by the installation's channels (each node records its own count).

describe("SharedQuota: a sliding-window limit shared by every node", () => {
  const { connect } = useRedisClients("quota");

  it("grants at most the limit per window over all callers, and what is left", async () => {
    const [a, b] = [new SharedQuota(await connect(), "node"), new SharedQuota(await connect(), "node")];
    const name = `test:${Date.now()}`;
    expect(await a.take(name, 4, 10, 60_000)).toBe(4);
    expect(await b.take(name, 4, 10, 60_000)).toBe(4);
    expect(await a.take(name, 4, 10, 60_000)).toBe(2);
    expect(await b.take(name, 1, 10, 60_000)).toBe(0);
    expect(await a.take(name, 0, 10, 60_000)).toBe(0);
  });

  it("three nodes' Twitch join queues never join more than the limit in any window together, and join everything", { timeout: 30_000 }, async () => {
    const PER_WINDOW = 10;
    const WINDOW_MS = 1_000;
    const name = `twitch:joins:bot-${Date.now()}`;
    const joins: Array<{ at: number; channels: number }> = [];
    const queues = await Promise.all(
      [0, 1, 2].map(async () => {
        const quota = new SharedQuota(await connect(), "node");
        return new JoinQueue((line) => joins.push({ at: Date.now(), channels: line.slice(5).split(",").length }), PER_WINDOW, WINDOW_MS, (wanted) => quota.take(name, wanted, PER_WINDOW, WINDOW_MS));
      }),
    );
    queues.forEach((queue, q) => {
      for (let i = 0; i < 12; i++) queue.add(`node${q}chan${i}`);
    });
    await waitFor(() => joins.reduce((n, j) => n + j.channels, 0) === 36, 20_000, "every channel joined");
    // In every window of WINDOW_MS (with 50 ms for timer and Redis jitter between nodes), at most PER_WINDOW joins.
    for (const j of joins) {
      const inWindow = joins.filter((k) => k.at >= j.at && k.at < j.at + WINDOW_MS - 50).reduce((n, k) => n + k.channels, 0);
      expect(inWindow).toBeLessThanOrEqual(PER_WINDOW);
    }
    expect(queues.every((q) => q.waiting === 0)).toBe(true);
    for (const q of queues) q.clear();
  });

  it("counters and per-node sums add every node's part; a node's part is forgotten after its lifetime", async () => {
    const [a, b] = [new SharedQuota(await connect(), "node-a"), new SharedQuota(await connect(), "node-b")];
    const name = `test:${Date.now()}`;
    expect(await a.count(`${name}:units`, 5, 60_000)).toBe(5);
    expect(await b.count(`${name}:units`, 7, 60_000)).toBe(12);
    expect(await a.count(`${name}:units`, 0, 60_000)).toBe(12);
    expect(await a.sum(`${name}:channels`, 3, 60_000)).toBe(3);
    expect(await b.sum(`${name}:channels`, 2, 300)).toBe(5);
    // Recorded again: replaced, not added.
    expect(await a.sum(`${name}:channels`, 4, 60_000)).toBe(6);
    await new Promise((r) => setTimeout(r, 400));
    expect(await a.sum(`${name}:channels`, 4, 60_000)).toBe(4);
  });

  it("two nodes' YouTube channels stop at the project's daily quota together, each with a share of the installation's channels", { timeout: 30_000 }, async () => {
    const DAILY = 1_000;
    const nodes = await Promise.all(["node-a", "node-b"].map(async (node) => new ProjectQuota({ dailyUnits: DAILY, shared: new SharedQuota(await connect(), node) })));
    const [a, b] = nodes as [ProjectQuota, ProjectQuota];
    a.served(3);
    await waitFor(() => a.channels() === 3, 5_000, "node-a's count recorded");
    b.served(2);
    await waitFor(() => b.channels() === 5, 5_000, "node-b learns the installation's five channels");
    a.served(3);
    await waitFor(() => a.channels() === 5, 5_000, "node-a learns them too");
    // Each channel's share is the quota over the installation's channels (as the YouTube plugin divides it).
    const shareOf = (project: ProjectQuota) => () => Math.floor(DAILY / project.channels());
    expect(new QuotaBudget({ dailyUnits: DAILY, streamSeconds: 3600, reserveUnits: 0, share: shareOf(a) }).snapshot().budget).toBe(200);
    expect(new QuotaBudget({ dailyUnits: DAILY, streamSeconds: 3600, reserveUnits: 0, share: shareOf(b) }).snapshot().budget).toBe(200);
    // Each channel's own budget is large here (its share is not what stops it): the project's is.
    const budgets = [a, a, a, b, b].map((project) => new QuotaBudget({ dailyUnits: DAILY, streamSeconds: 3600, reserveUnits: 0, project }));
    let spent = 0;
    for (let round = 0; round < 200; round++) {
      const allowed = budgets.filter((budget) => budget.allows("liveChatMessages.list", true));
      if (allowed.length === 0) break;
      for (const budget of allowed) {
        budget.charge("liveChatMessages.list");
        spent += 5;
      }
      // The calls take a while: the counter's answers arrive meanwhile (awaited, not slept for:
      // under load a 20 ms sleep let two rounds go out before any answer and overshot).
      await Promise.all([a.settled(), b.settled()]);
    }
    // Every node stopped near the quota; over it by at most one round of calls (those made before the last total arrived).
    expect(spent).toBeGreaterThanOrEqual(DAILY - 5 * budgets.length);
    expect(spent).toBeLessThanOrEqual(DAILY + 5 * budgets.length);
    const reader = new SharedQuota(await connect(), "reader");
    expect(await reader.count(`youtube:units:${pacificDay(Date.now())}`, 0, 60_000)).toBe(spent);
    expect(budgets.every((budget) => !budget.allows("liveChatMessages.list", true))).toBe(true);
    expect(budgets[0]!.describe()).toMatch(new RegExp(`the installation \\d+/${DAILY}`));
  });
});
