import { Redis } from "ioredis";
import type { Logger } from "pino";
import { ApiError } from "../errors.js";
import { redactUrl } from "../redact-url.js";

/** How long the first connection may take before start fails. */
const CONNECT_TIMEOUT_MS = 10_000;

/** Options of {@link openRedis}. */
export interface OpenRedisOptions {
  /** What this connection is for ("adapter", "counters"...), in logs and in `CLIENT LIST`. */
  name: string;
  logger?: Logger;
  /**
   * Give up commands while disconnected instead of queueing them (blocking readers such as the
   * socket.io adapter want a queue; request-path counters want a quick failure).
   */
  failFast?: boolean;
}

/**
 * One connection to the Redis of `OVATION_REDIS_URL`, connected before it is returned: a server that
 * cannot reach Redis at start fails with `OVATION_ERR_REDIS_UNREACHABLE` naming the URL (password
 * hidden). Afterwards ioredis reconnects on its own (backoff capped at 2 s) and the losses and
 * recoveries are logged once each.
 */
export async function openRedis(url: string, options: OpenRedisOptions): Promise<Redis> {
  const { name, logger } = options;
  const shown = redactUrl(url);
  const client = new Redis(url, {
    lazyConnect: true,
    connectionName: `ovation:${name}`,
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
    ...(options.failFast ? { maxRetriesPerRequest: 1, enableOfflineQueue: false } : { maxRetriesPerRequest: null }),
  });
  let lost = false;
  client.on("error", (error: Error) => {
    if (lost) return;
    lost = true;
    logger?.warn({ redis: shown, connection: name, err: error.message }, "Redis connection lost; reconnecting");
  });
  client.on("ready", () => {
    if (!lost) return;
    lost = false;
    logger?.info({ redis: shown, connection: name }, "Redis connection back");
  });
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw new ApiError("OVATION_ERR_REDIS_UNREACHABLE", {
      message: `Redis at ${shown} (OVATION_REDIS_URL) cannot be reached: ${(error as Error).message}`,
      cause: error,
    });
  }
  return client;
}

/** Closes a connection, waiting for replies already asked for; never throws. */
export async function closeRedis(client: Redis): Promise<void> {
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}
