import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GuardedHttpClient } from "../../net/guarded-client.js";
import { NetError } from "../../net/net-error.js";
import { verifyOvationSignature } from "../../net/signature.js";
import { startLoopbackServer, type LoopbackServer } from "../../net/__tests__/loopback-server.js";
import { CommandError } from "../command-error.js";
import { InMemoryKeyValueStore } from "../key-value-store.js";
import { TemplateCache } from "../template-cache.js";
import { createTemplateFunctions, TEMPLATE_FUNCTION_LIMITS, type TemplateFunctionsOptions } from "../template-functions.js";

const secret = "0123456789abcdef-secret";

describe("template functions bound to a channel", () => {
  let server: LoopbackServer;
  let http: GuardedHttpClient;
  beforeAll(async () => {
    server = await startLoopbackServer((req, res) => {
      if (req.url === "/json") res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      else res.writeHead(200, { "content-type": "text/plain" }).end(`got ${JSON.parse(req.body).args.join(" ")}`);
    });
    http = new GuardedHttpClient({ allow: ["127.0.0.1"] });
  });
  afterAll(async () => {
    await http.close();
    await server.close();
  });

  function make(overrides: Partial<TemplateFunctionsOptions> = {}) {
    return createTemplateFunctions({
      channel: "chan-1",
      store: new InMemoryKeyValueStore(),
      cache: new TemplateCache(),
      http,
      signingSecret: secret,
      payload: { event: { id: "e" }, command: { command: "bal" }, args: ["!bal", "me"] },
      ...overrides,
    });
  }

  it("db/inc/dec/set work per channel on the host store", async () => {
    const store = new InMemoryKeyValueStore();
    const a = make({ store });
    const b = make({ store, channel: "chan-2" });
    expect(await a.inc("deaths", "total")).toBe(1);
    expect(await a.inc("deaths", "total", 5)).toBe(6);
    expect(await a.dec("deaths", "total", 2)).toBe(4);
    expect(await a.set("quotes", "1", "to be or not")).toBe("to be or not");
    expect(await a.db("deaths")).toEqual({ total: 4 });
    expect(await b.db("deaths")).toEqual({});
    expect(await a.db("nothing")).toEqual({});
  });

  it("refuses bad arguments with a clear message", async () => {
    const fns = make();
    await expect(fns.db("bad table!")).rejects.toThrowError(/db: the table name must be/);
    await expect(fns.inc("t", "k", Number.NaN)).rejects.toThrowError(/inc: the amount must be a number/);
    await expect(fns.set("t", "", 1)).rejects.toThrowError(/set: the key must be/);
    await expect(fns.set("t", "k", "x".repeat(3000))).rejects.toThrowError(/larger than 2048/);
    await expect(fns.cache("k", 1, 0)).rejects.toThrowError(/cache: the lifetime must be/);
    await expect(fns.json("get", 42 as unknown as string)).rejects.toBeInstanceOf(CommandError);
    await expect(fns.set("__proto__", "polluted", 1)).rejects.toThrowError(/"__proto__" cannot be used as a table name/);
    await expect(fns.inc("stats", "constructor")).rejects.toThrowError(/"constructor" cannot be used as a key/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("limits the calls of one render", async () => {
    const fns = make();
    for (let i = 0; i < TEMPLATE_FUNCTION_LIMITS.callsPerRender; i++) await fns.inc("t", "k");
    await expect(fns.inc("t", "k")).rejects.toThrowError(/at most 25 times per run/);
  });

  it("cache reads, writes and expires with the injected clock", async () => {
    let now = 0;
    const cache = new TemplateCache({ now: () => now });
    const fns = make({ cache });
    expect(await fns.cache("greeting")).toBeNull();
    expect(await fns.cache("greeting", "hi", 60)).toBe("hi");
    expect(await make({ cache }).cache("greeting")).toBe("hi");
    now += 61_000;
    expect(await make({ cache }).cache("greeting")).toBeNull();
    await fns.cache("day", "long");
    now += 86_399_000;
    expect(await make({ cache }).cache("day")).toBe("long");
    now += 2_000;
    expect(await make({ cache }).cache("day")).toBeNull();
  });

  it("proxy_pass and json go through the guarded client, signed with the channel's secret", async () => {
    expect(await make().proxy_pass(`${server.origin}/pass`)).toBe("got !bal me");
    const last = server.received.at(-1);
    expect(
      verifyOvationSignature({
        secret,
        body: last?.body ?? "",
        timestamp: last?.headers["x-ovation-timestamp"] as string,
        signature: last?.headers["x-ovation-signature"] as string,
      }),
    ).toBe(true);
    expect(JSON.parse(last?.body ?? "")).toMatchObject({ version: 1, event: { id: "e" }, command: { command: "bal" } });
    expect(await make().json("GET", `${server.origin}/json`)).toEqual({ ok: true });
    await expect(make({ http: new GuardedHttpClient() }).proxy_pass(`${server.origin}/pass`)).rejects.toBeInstanceOf(NetError);
    const offline = createTemplateFunctions({
      channel: "chan-1",
      store: new InMemoryKeyValueStore(),
      cache: new TemplateCache(),
      signingSecret: secret,
      payload: { event: {}, command: {}, args: [] },
    });
    await expect(offline.proxy_pass(`${server.origin}/pass`)).rejects.toThrowError(/outbound calls are disabled/);
  });

  it("user() and channel() use the platform lookups, or answer null", async () => {
    const fns = make({
      lookups: {
        user: async (login) => (login === "alice" ? { id: "1", name: "alice", type: "", description: "hi", view_count: 3 } : null),
        channel: async () => null,
      },
    });
    expect(await fns.user("alice")).toMatchObject({ id: "1", name: "alice" });
    expect(await fns.user("bob")).toBeNull();
    expect(await fns.channel("1")).toBeNull();
    expect(await make().user("alice")).toBeNull();
  });
});
