import { spawn, spawnSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Socket } from "node:net";
import type { Redis } from "ioredis";
import { afterAll, beforeAll } from "vitest";
import { closeRedis, openRedis } from "../../redis/connection.js";
import type { OvationApp } from "../../app.js";
import { freePort, tempDataDir, testApp } from "../helpers.js";
import { listen } from "../socket-helpers.js";
import { ensureInstalled, sharedService } from "./shared-service.js";

/** Databases of the shared Redis: 0 holds the run's counter, the others are handed out in turn. */
const SHARED_DATABASES = 256;

const hasRedis = () => spawnSync("sh", ["-c", "command -v redis-server"], { stdio: "ignore" }).status === 0;

/** Arguments of a throwaway redis-server: loopback only, no persistence, files in `dir`. */
function redisArgs(port: number, dir: string): string[] {
  return ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no", "--protected-mode", "yes"];
}

/** Resolves once something answers PING with PONG on the port (or rejects after `timeoutMs`). */
export async function waitForRedis(port: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = new Socket();
      let answer = "";
      socket.setTimeout(1_000, () => socket.destroy());
      socket.once("error", () => resolve(false));
      socket.once("close", () => resolve(answer.startsWith("+PONG")));
      socket.on("data", (chunk) => {
        answer += chunk.toString("latin1");
        socket.end();
      });
      socket.connect(port, "127.0.0.1", () => socket.write("PING\r\n"));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`redis-server on 127.0.0.1:${port} did not answer PING within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function startSharedRedis(dir: string): Promise<{ port: number; stop: string[] }> {
  ensureInstalled(hasRedis, ["redis-server"]);
  const port = await freePort();
  const pidFile = join(dir, "redis.pid");
  const args = [...redisArgs(port, dir), "--databases", String(SHARED_DATABASES), "--daemonize", "yes", "--pidfile", pidFile, "--logfile", join(dir, "log")];
  const result = spawnSync("redis-server", args, { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`redis-server failed to start: ${result.stderr}${result.stdout}`);
  await waitForRedis(port);
  return { port, stop: ["redis-cli", "-p", String(port), "shutdown", "nosave"] };
}

/**
 * The Redis this test run shares (Debian's redis-server, installed when missing, started on a
 * loopback port in a temporary directory by the first test that asks); returns its port. Tests
 * sharing it keep apart by key prefix or by database number ({@link freshRedisUrl}).
 */
export async function sharedRedis(): Promise<number> {
  return (await sharedService("redis", startSharedRedis)).port;
}

/**
 * A URL on the shared Redis with a database of its own (1-255, handed out in turn by a counter in
 * database 0, so test files running at the same time never share one), flushed first; pass a key
 * prefix of the test's own as well when several tests of one file share it.
 */
export async function freshRedisUrl(): Promise<string> {
  const port = await sharedRedis();
  const counter = spawnSync("redis-cli", ["-p", String(port), "-n", "0", "incr", "ovation-test:next-database"], { encoding: "utf8" });
  const next = Number.parseInt(String(counter.stdout).trim(), 10);
  if (counter.status !== 0 || !Number.isInteger(next)) throw new Error(`redis-cli incr on the shared Redis failed: ${String(counter.stderr)}${String(counter.stdout)}`);
  const db = 1 + ((next - 1) % (SHARED_DATABASES - 1));
  spawnSync("redis-cli", ["-p", String(port), "-n", String(db), "flushdb"], { stdio: "ignore" });
  return `redis://127.0.0.1:${port}/${db}`;
}

/** A redis-server of a test's own, which the test may stop and start again (restarts, outages). */
export interface OwnRedis {
  readonly port: number;
  readonly url: string;
  /** Stops the server (SIGKILL: an outage, not a clean shutdown); data is lost (no persistence). */
  kill(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it for good and removes its directory. */
  close(): Promise<void>;
}

/** Starts a redis-server of the caller's own on a free loopback port. */
export async function startOwnRedis(): Promise<OwnRedis> {
  ensureInstalled(hasRedis, ["redis-server"]);
  const dir = mkdtempSync(join(tmpdir(), "ovation-redis-"));
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    const proc = spawn("redis-server", redisArgs(port, dir), { stdio: "ignore" });
    child = proc;
    process.once("exit", () => proc.kill("SIGKILL"));
    await waitForRedis(port);
  };
  const kill = async () => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once("exit", () => resolve());
      proc.kill("SIGKILL");
    });
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    start,
    close: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * For a describe block: a fresh database of the shared Redis (taken before its tests) and
 * `connect()`, which opens one more client to it as a node would (named `name`, failing fast), or
 * to another Redis (`url`, e.g. a test's own server); every client is closed after the block.
 */
export function useRedisClients(name: string): { connect(to?: { url?: string; name?: string }): Promise<Redis> } {
  const connections: Redis[] = [];
  let url: string;
  beforeAll(async () => {
    url = await freshRedisUrl();
  }, 120_000);
  afterAll(async () => {
    for (const client of connections) await closeRedis(client);
  });
  return {
    async connect(to = {}) {
      const client = await openRedis(to.url ?? url, { name: to.name ?? name, failFast: true });
      connections.push(client);
      return client;
    },
  };
}

/** The two nodes of {@link useTwoNodesOnRedis}: apps and their loopback URLs, node A first. */
export interface RedisNodes {
  apps: OvationApp[];
  urls: string[];
}

/**
 * For a test file: two apps in this process (`node-a`, `node-b`) on one fresh database of the
 * shared Redis, each with its own copy of one store: `seed(a)` fills node A's store, then node B
 * starts on a copy of what A stored (so the Redis side alone carries what one node tells the
 * other). After the file, `beforeClose` runs (close the sockets), then both apps stop.
 */
export function useTwoNodesOnRedis(seed: (a: OvationApp) => Promise<void> | void, beforeClose: () => void = () => undefined): RedisNodes {
  const dirs = [tempDataDir(), tempDataDir()];
  const nodes: RedisNodes = { apps: [], urls: [] };
  const start = async (index: number, env: Record<string, string>) => {
    const app = await testApp(dirs[index]?.dir ?? "", { ...env, OVATION_SERVER_ID: `node-${"ab"[index]}`, OVATION_NODE_TTL_SECONDS: "2" });
    nodes.apps[index] = app;
    nodes.urls[index] = await listen(app);
  };
  beforeAll(async () => {
    const env = { OVATION_REDIS_URL: await freshRedisUrl() };
    await start(0, env);
    const a = nodes.apps[0] as OvationApp;
    await seed(a);
    await a.ovation.repos.store.persisted();
    // The second node starts on a copy of what the first stored.
    cpSync(join(dirs[0]?.dir ?? "", "store"), join(dirs[1]?.dir ?? "", "store"), { recursive: true });
    await start(1, env);
  }, 180_000);
  afterAll(async () => {
    beforeClose();
    for (const app of nodes.apps) await app?.close();
    for (const dir of dirs) dir.remove();
  });
  return nodes;
}
