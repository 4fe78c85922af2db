import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Redis } from "ioredis";
import { pino } from "pino";
import { freshRedisUrl } from "../../__tests__/services/redis.js";
import { NodeRegistry, SharedNotificationIds, closeRedis, openRedis } from "../index.js";

const logger = pino({ level: "silent" });
let url: string;
let redis: Redis;

beforeAll(async () => {
  url = await freshRedisUrl();
  redis = await openRedis(url, { name: "test", failFast: true });
}, 120_000);
afterAll(async () => {
  await closeRedis(redis);
});

describe("NodeRegistry", () => {
  it("lists live nodes, drops a node that stops beating within its TTL, and one that stops cleanly at once", async () => {
    const a = await NodeRegistry.start(redis, { serverId: "node-a", ttlMs: 600, logger });
    const dying = await openRedis(url, { name: "dying", failFast: true });
    const b = await NodeRegistry.start(dying, { serverId: "node-b", ttlMs: 600, logger });
    const c = await NodeRegistry.start(redis, { serverId: "node-c", ttlMs: 600, logger });
    try {
      expect(await a.liveIds()).toEqual(["node-a", "node-b", "node-c"]);
      // Still listed after several TTLs while beating.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(await a.liveIds()).toEqual(["node-a", "node-b", "node-c"]);
      // b's process dies: its connection is gone, its key expires.
      dying.disconnect();
      let ids: string[] = [];
      for (const deadline = Date.now() + 5_000; Date.now() < deadline; ) {
        ids = await a.liveIds();
        if (!ids.includes("node-b")) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(ids).toEqual(["node-a", "node-c"]);
      await c.stop();
      expect(await a.liveIds()).toEqual(["node-a"]);
    } finally {
      await Promise.all([a.stop(), b.stop(), c.stop()]);
    }
  });

  it("lists this node alone when Redis cannot be reached", async () => {
    const lost = await openRedis(url, { name: "lost", failFast: true });
    const registry = await NodeRegistry.start(lost, { serverId: "alone", ttlMs: 600, logger });
    lost.disconnect();
    expect(await registry.liveIds()).toEqual(["alone"]);
    await registry.stop();
  });
});

describe("SharedNotificationIds", () => {
  it("claims an id once among concurrent claimers, per user, and keeps the newest ids per user", async () => {
    const first = new SharedNotificationIds(redis, 3, logger);
    const other = await openRedis(url, { name: "other", failFast: true });
    try {
      const second = new SharedNotificationIds(other, 3, logger);
      const claims = await Promise.all([first.claim(1, "x"), second.claim(1, "x"), first.claim(1, "x"), second.claim(1, "x")]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await second.claim(2, "x")).toBe(true);
      for (const id of ["a", "b", "c"]) expect(await first.claim(1, id)).toBe(true);
      // "x" was pushed out of user 1's three newest ids; "c" was not.
      expect(await second.claim(1, "x")).toBe(true);
      expect(await second.claim(1, "c")).toBe(false);
    } finally {
      await closeRedis(other);
    }
  });

  it("keeps the newest ids by arrival when they come within one millisecond (not the ids that sort last)", async () => {
    const ids = new SharedNotificationIds(redis, 3, logger);
    const now = vi.spyOn(Date, "now").mockReturnValue(1_700_000_000_000);
    try {
      for (const id of ["z", "a", "b", "c"]) expect(await ids.claim(7, id)).toBe(true);
      // All four share one time: "z" came first and is the one pushed out, though it sorts last.
      expect(await ids.claim(7, "c")).toBe(false);
      expect(await ids.claim(7, "a")).toBe(false);
      expect(await ids.claim(7, "z")).toBe(true);
      // A clock that steps back does not reorder them either: "b" is now the oldest.
      now.mockReturnValue(1_600_000_000_000);
      expect(await ids.claim(7, "y")).toBe(true);
      expect(await ids.claim(7, "b")).toBe(true);
    } finally {
      now.mockRestore();
    }
  });

  it("answers 'new' when Redis cannot be reached (an outage never drops an alert)", async () => {
    const lost = await openRedis(url, { name: "lost", failFast: true });
    lost.disconnect();
    expect(await new SharedNotificationIds(lost, 3, logger).claim(1, "y")).toBe(true);
  });
});
