import type { ChatEvent, PlatformPlugin, PluginContext } from "@ovation/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OvationApp } from "../../app.js";
import { bearer, tempDataDir, testApp } from "../../__tests__/helpers.js";
import { freshRedisUrl, startOwnRedis } from "../../__tests__/services/redis.js";
import { waitFor } from "../../__tests__/socket-helpers.js";

/** A platform connection the test watches: connected or not on its node. */
class ProbePlugin implements PlatformPlugin {
  readonly metadata = { name: "probe", platform: "kick", version: "1.0.0", core: "^0.1.0" };
  readonly capabilities = { send: ["say" as const], moderation: { deleteMessage: false, timeout: false } };
  connected = false;
  channels() {
    return [{ id: "1", platform_id: "kick-room-1", username: "streamer", avatar_url: "" }];
  }
  async connect(_context: PluginContext) {
    this.connected = true;
  }
  async disconnect() {
    this.connected = false;
  }
  async send() {}
}

let seq = 0;
function chat(message: string, user = "viewer-1"): ChatEvent {
  seq++;
  return {
    id: `msg-${seq}`,
    type: "message",
    timestamp: 1_700_000_000_000 + seq,
    platform: "kick",
    user: { platform_id: user, username: user, avatar_url: "https://example.com/a.png", color: null, badges: [] },
    channel: { id: "1", platform_id: "kick-room-1", username: "streamer", avatar_url: "https://example.com/s.png" },
    message,
    fragments: [{ type: "text", text: message }],
    parent: null,
    attributes: { edited: false, accent: null, action: false, highlight: false },
  };
}


// Two real apps (own data directories, own HTTP listeners on loopback) sharing one Redis through
// OVATION_REDIS_URL, as two nodes of one installation are.
describe("two nodes sharing Redis through OVATION_REDIS_URL", () => {
  const dirs = [tempDataDir(), tempDataDir()];
  const probes = [new ProbePlugin(), new ProbePlugin()];
  const apps: OvationApp[] = [];
  const urls: string[] = [];
  beforeAll(async () => {
    const env = { OVATION_REDIS_URL: await freshRedisUrl(), OVATION_RATE_LIMIT_PER_MINUTE: "40" };
    for (const [i, dir] of dirs.entries()) {
      const app = await testApp(dir.dir, env, { platforms: { env: {}, extra: [probes[i] as ProbePlugin], leaseTtlMs: 3_000 } });
      apps.push(app);
      urls.push(await app.listen({ host: "127.0.0.1", port: 0 }));
    }
  }, 120_000);
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const dir of dirs) dir.remove();
  });

  it("the HTTP rate limit counts requests on both nodes together", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 42; i++) {
      const response = await fetch(`${urls[i % 2]}/openapi.json`, { headers: { authorization: "Bearer rate-limit-probe" } });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 40).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(40)).toEqual([429, 429]);
  });

  it("failed bearer checks from one address throttle it on both nodes", async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 22; i++) {
      last = await fetch(`${urls[i % 2]}/v1/users`, { headers: bearer(`ovpat_9_invalid${i}`) });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429]);
    expect(((await last?.json()) as { code: string }).code).toBe("OVATION_ERR_AUTH_TOO_MANY_FAILURES");
  });

  it("the identity module's limits count on both nodes: password-reset mails per address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${urls[i % 2]}/password/forgot`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email: "nobody@example.test" }).toString(),
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("a command under a cooldown is answered once whichever node the messages reach; cache() is shared", async () => {
    for (const app of apps) {
      app.ovation.commands.runtime.setCommands("1", [
        { command: "hello", response: "hi there", global_cooldown: 30 },
        { command: "remember", response: "{{ cache('word', args[1]) }}", global_cooldown: 0 },
        { command: "recall", response: "you said {{ cache('word') }}", global_cooldown: 0 },
      ]);
    }
    const runtimes = apps.map((app) => app.ovation.commands.runtime);
    const [a, b] = runtimes;
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => runtimes[i % 2]?.handle(chat("!hello", `viewer-${i}`))));
    expect(answers.filter((answer) => answer !== null && answer !== undefined)).toHaveLength(1);

    expect((await a?.handle(chat("!remember pineapple")))?.text).toBe("pineapple");
    expect((await b?.handle(chat("!recall")))?.text).toBe("you said pineapple");
  });

  it("the platform connection runs on one node; the console on both; it moves when that node stops", async () => {
    // Whichever node took the lease first (on a busy machine the second node may win the race).
    await waitFor(() => probes.some((probe) => probe.connected), 20_000, "a node to take the platform's lease");
    const holder = probes.findIndex((probe) => probe.connected);
    const [serving, other] = [probes[holder], probes[1 - holder]] as [ProbePlugin, ProbePlugin];
    expect(other.connected).toBe(false);
    const consoleOn = (app: OvationApp) => app.platformPlugins.health().find((plugin) => plugin.name === "console")?.status;
    expect(apps.map(consoleOn)).toEqual(["connected", "connected"]);
    await (apps.splice(holder, 1)[0] as OvationApp).close();
    expect(serving.connected).toBe(false);
    // The stopping node gives its lease up; failing that, it runs out after leaseTtlMs (3 s).
    await waitFor(() => other.connected, 20_000, "the other node to take the platform over");
    expect(serving.connected).toBe(false);
  }, 60_000);
});

describe("a node whose Redis restarts mid-run", () => {
  it("keeps serving (rate limit skipped, failures and cooldowns counted in memory) and shares again once Redis is back", async () => {
    const own = await startOwnRedis();
    const dir = tempDataDir();
    const app = await testApp(dir.dir, { OVATION_REDIS_URL: own.url }, { platforms: false });
    try {
      const url = await app.listen({ host: "127.0.0.1", port: 0 });
      const runtime = app.ovation.commands.runtime;
      runtime.setCommands("1", [{ command: "hello", response: "hi there", global_cooldown: 30 }]);
      await own.kill();
      expect((await fetch(`${url}/openapi.json`)).status).toBe(200);
      expect((await fetch(`${url}/v1/users`, { headers: bearer("ovpat_9_invalid") })).status).toBe(401);
      expect((await runtime.handle(chat("!hello")))?.text).toBe("hi there");
      expect(await runtime.handle(chat("!hello", "viewer-2"))).toBeNull();

      await own.start();
      const redis = app.ovation.shared.redis;
      await waitFor(() => redis?.status === "ready");
      expect((await runtime.handle(chat("!hello", "viewer-3")))?.text).toBe("hi there");
      expect(await redis?.exists("ovation:cooldown:1\u0000hello")).toBe(1);
      expect((await fetch(`${url}/openapi.json`)).status).toBe(200);
      expect(Number(await redis?.get("ovation:rate-limit:ip:127.0.0.1"))).toBeGreaterThan(0);
    } finally {
      await app.close();
      dir.remove();
      await own.close();
    }
  }, 60_000);
});
