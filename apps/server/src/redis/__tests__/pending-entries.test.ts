import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDataDir } from "../../__tests__/helpers.js";
import { startOwnRedis } from "../../__tests__/services/redis.js";
import type { OwnRedis } from "../../__tests__/services/redis.js";
import { FilePendingEntries } from "../../identity/platforms/pending.js";
import type { PendingEntries } from "../../identity/platforms/pending.js";
import { closeRedis, openRedis } from "../connection.js";
import { RedisPendingEntries } from "../pending-entries.js";

/** What every kind of pending entries must do: put, get, take once, expire. */
async function behaves(entries: PendingEntries, clock: { now: number }): Promise<void> {
  await entries.put("state.aa", { platform: "twitch", n: 1 }, 60_000);
  expect(await entries.get("state.aa")).toEqual({ platform: "twitch", n: 1 });
  // Taken by exactly one of two concurrent callers.
  const [a, b] = await Promise.all([entries.take("state.aa"), entries.take("state.aa")]);
  expect([a, b].filter((v) => v !== null)).toEqual([{ platform: "twitch", n: 1 }]);
  expect(await entries.get("state.aa")).toBeNull();
  await entries.put("state.bb", { n: 2 }, 50);
  clock.now += 100;
  await new Promise((resolve) => setTimeout(resolve, 120));
  expect(await entries.get("state.bb")).toBeNull();
  expect(await entries.take("state.bb")).toBeNull();
}

describe("pending sign-in entries, one file each", () => {
  const data = tempDataDir();
  afterAll(() => data.remove());

  it("puts, takes once, expires, keeps private modes and survives a reopen", async () => {
    const clock = { now: 1_000_000 };
    const entries = await FilePendingEntries.open(data.dir, () => clock.now);
    await behaves(entries, clock);
    await entries.put("link.cc", { n: 3 }, 60_000);
    const dir = join(data.dir, "pending-sign-ins");
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, "link.cc.json"))).mode & 0o777).toBe(0o600);
    const reopened = await FilePendingEntries.open(data.dir, () => clock.now);
    expect(await reopened.get("link.cc")).toEqual({ n: 3 });
    expect(reopened.size).toBe(1);
    // Expired files are removed on open.
    clock.now += 120_000;
    const later = await FilePendingEntries.open(data.dir, () => clock.now);
    expect(later.size).toBe(0);
    expect((await readdir(dir)).filter((n) => n.endsWith(".json"))).toEqual([]);
    await expect(entries.put("../escape", {}, 1000)).rejects.toThrow("is not a hash");
  });

  it("keeps at most its cap, dropping the oldest first", async () => {
    const clock = { now: 5_000_000 };
    const capped = await FilePendingEntries.open(tempDataDir().dir, () => clock.now, 5);
    for (let i = 0; i < 12; i += 1) await capped.put(`state.k${i}`, { i }, 60_000);
    expect(capped.size).toBe(5);
    expect(await capped.get("state.k0")).toBeNull();
    expect(await capped.get("state.k11")).toEqual({ i: 11 });
    expect(await capped.get("state.k7")).toEqual({ i: 7 });
  });
});

describe("pending sign-in entries in Redis (shared by every node)", () => {
  let own: OwnRedis;
  let a: Redis;
  let b: Redis;
  beforeAll(async () => {
    own = await startOwnRedis();
    a = await openRedis(own.url, { name: "pending-a", failFast: true });
    b = await openRedis(own.url, { name: "pending-b", failFast: true });
  }, 120_000);
  afterAll(async () => {
    await closeRedis(a);
    await closeRedis(b);
    await own.close();
  });

  it("puts, takes once, expires by itself; one node's entry is taken on another", async () => {
    await behaves(new RedisPendingEntries(a), { now: 0 });
    const nodeA = new RedisPendingEntries(a);
    const nodeB = new RedisPendingEntries(b);
    await nodeA.put("state.dd", { from: "a" }, 60_000);
    expect(await a.pttl("ovation:pending-sign-in:state.dd")).toBeGreaterThan(50_000);
    expect(await nodeB.take("state.dd")).toEqual({ from: "a" });
    expect(await nodeA.get("state.dd")).toBeNull();
  });
});
