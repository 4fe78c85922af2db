import { describe, expect, it } from "vitest";
import { JoinQueue } from "@ovation/plugin-twitch";
import { useRedisClients } from "../../__tests__/services/redis.js";
import { waitFor } from "../../__tests__/socket-helpers.js";
import { SharedQuota } from "../shared-quota.js";

// Twitch counts the bot account's JOINs, not each connection's: three nodes' join queues share one
// sliding window in a real Redis, so together they never join more than the limit in any window.

describe("SharedQuota: a sliding-window limit shared by every node", () => {
  const { connect } = useRedisClients("quota");

  it("grants at most the limit per window over all callers, and what is left", async () => {
    const [a, b] = [new SharedQuota(await connect()), new SharedQuota(await connect())];
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
        const quota = new SharedQuota(await connect());
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
});
