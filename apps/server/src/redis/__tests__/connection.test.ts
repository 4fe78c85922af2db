import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../__tests__/helpers.js";
import { freshRedisUrl, startOwnRedis } from "../../__tests__/services/redis.js";
import type { OwnRedis } from "../../__tests__/services/redis.js";
import { ApiError } from "../../errors.js";
import { closeRedis, openRedis } from "../index.js";

describe("openRedis", () => {
  let own: OwnRedis;
  beforeAll(async () => {
    own = await startOwnRedis();
  }, 120_000);
  afterAll(async () => {
    await own?.close();
  });

  it("connects to a real redis-server and runs commands", async () => {
    const client = await openRedis(await freshRedisUrl(), { name: "test" });
    try {
      await client.set("ovation:test:key", "value");
      expect(await client.get("ovation:test:key")).toBe("value");
    } finally {
      await closeRedis(client);
    }
  });

  it("fails to start with a coded error naming the URL without its password", async () => {
    const port = await freePort();
    const error = await openRedis(`redis://:hunter2@127.0.0.1:${port}`, { name: "test" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("OVATION_ERR_REDIS_UNREACHABLE");
    expect((error as ApiError).message).toContain(`127.0.0.1:${port}`);
    expect((error as ApiError).message).not.toContain("hunter2");
  });

  it("reconnects on its own after the server restarts", async () => {
    const client = await openRedis(own.url, { name: "test" });
    try {
      expect(await client.ping()).toBe("PONG");
      await own.kill();
      await own.start();
      // Commands queue while ioredis reconnects (not fail-fast), then run.
      expect(await client.ping()).toBe("PONG");
    } finally {
      await closeRedis(client);
    }
  }, 60_000);
});
