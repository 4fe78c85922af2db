import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GuardedHttpClient } from "../guarded-client.js";
import { NET_ERROR_CODES, NetError } from "../net-error.js";
import { fetchJson, proxyPass } from "../template-calls.js";
import { verifyOvationSignature } from "../signature.js";
import { startLoopbackServer, type LoopbackServer } from "./loopback-server.js";

const SECRET = "user-secret-for-tests";
const ctx = { channel: "chan-1", signingSecret: SECRET };

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(NetError);
    return (error as NetError).code;
  }
  return "resolved";
}

describe("GuardedHttpClient address checks (no connection made)", () => {
  const client = new GuardedHttpClient();
  afterAll(() => client.close());

  it.each([
    "http://2130706433/",
    "http://0177.0.0.1/",
    "http://127.1/",
    "http://0x7f.1/",
    "http://0/",
    "http://[::ffff:7f00:1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::1]/",
    "http://[::]/",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::ffff:169.254.169.254]/",
    "http://10.0.0.1/",
    "http://172.16.5.4/",
    "http://192.168.1.1/",
    "http://100.64.0.1/",
    "http://224.0.0.1/",
    "http://255.255.255.255/",
    "http://240.0.0.1/",
    "http://[fe80::1]/",
    "http://[fc00::1]/",
    "http://[ff02::1]/",
    "http://[64:ff9b::7f00:1]/",
    "http://[64:ff9b::a9fe:a9fe]/",
    "http://[2002:7f00:1::]/",
    "http://[::a00:1]/",
    "http://[::127.0.0.1]/",
    "http://[64:ff9b:1::a00:1]/",
    "http://[2001::1]/",
  ])("refuses %s with a message naming the address", (url) => {
    let error: unknown;
    try {
      client.checkUrl(url);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NetError);
    expect((error as NetError).code).toBe(NET_ERROR_CODES.address);
    expect((error as NetError).message).toMatch(/^refused: .* address; template calls may only reach public addresses$/);
  });

  it("words each refusal with the range's name and its article", () => {
    const messageOf = (url: string) => {
      try {
        client.checkUrl(url);
      } catch (error) {
        return (error as NetError).message;
      }
      return "accepted";
    };
    expect(messageOf("http://0/")).toBe("refused: 0.0.0.0 is an unspecified address; template calls may only reach public addresses");
    expect(messageOf("http://[::ffff:7f00:1]/")).toMatch(/^refused: ::ffff:7f00:1 is an IPv4-mapped \(127\.0\.0\.1\) address;/);
    expect(messageOf("http://[fd00::1]/")).toMatch(/is a unique-local \(fc00::\/7\) address;/);
    expect(messageOf("http://127.1/")).toMatch(/is a loopback address;/);
  });

  it("accepts public addresses and names without resolving them", () => {
    expect(client.checkUrl("https://8.8.8.8/x").hostname).toBe("8.8.8.8");
    expect(client.checkUrl("https://[2606:4700:4700::1111]/").hostname).toBe("[2606:4700:4700::1111]");
    expect(client.checkUrl("https://example.com/api").hostname).toBe("example.com");
  });

  it.each(["file:///etc/passwd", "ftp://example.com/", "gopher://example.com/", "data:text/plain,hi", "javascript:alert(1)"])(
    "refuses the scheme of %s",
    (url) => {
      expect(() => client.checkUrl(url)).toThrowError(/only http: and https:/);
    },
  );

  it("refuses unparsable URLs and credentials", () => {
    expect(() => client.checkUrl("not a url")).toThrowError(/is not a valid URL/);
    expect(() => client.checkUrl("http://user:pw@example.com/")).toThrowError(/credentials/);
  });

  it("lists every option out of bounds", () => {
    expect(() => new GuardedHttpClient({ timeoutMs: 0, maxRedirects: 99, callsPerMinute: 1.5 })).toThrowError(
      "GuardedHttpClient options: timeoutMs must be an integer from 1 to 60000, got 0; maxRedirects must be an integer from 0 to 10, got 99; callsPerMinute must be an integer from 1 to 9007199254740991, got 1.5",
    );
  });

  it("names a bad allowlist entry", () => {
    expect(() => new GuardedHttpClient({ allow: ["10.0.0.0/99"] })).toThrowError(/"10.0.0.0\/99" is not a valid CIDR range/);
    expect(() => new GuardedHttpClient({ allow: ["bad host!"] })).toThrowError(/neither a host name/);
  });

  it("lets an allowlisted IPv4 range cover its IPv4-mapped form", () => {
    const allowing = new GuardedHttpClient({ allow: ["127.0.0.0/8"] });
    expect(allowing.checkUrl("http://[::ffff:127.0.0.1]/").hostname).toBe("[::ffff:7f00:1]");
    expect(() => allowing.checkUrl("http://10.0.0.1/")).toThrowError(/private/);
    return allowing.close();
  });
});

describe("GuardedHttpClient against real loopback servers", () => {
  let text: LoopbackServer;
  let other: LoopbackServer;
  let slow: LoopbackServer;
  const allowed = new GuardedHttpClient({ allow: ["127.0.0.1"], maxResponseBytes: 1024 });
  const impatient = new GuardedHttpClient({ allow: ["127.0.0.1"], timeoutMs: 300 });
  const guarded = new GuardedHttpClient();
  /** Settles when the server's /trickle reply closes: true when it was written to the end. */
  let trickleFinished: (finished: boolean) => void = () => undefined;
  const trickleClosed = new Promise<boolean>((resolve) => (trickleFinished = resolve));

  beforeAll(async () => {
    text = await startLoopbackServer((req, res) => {
      const path = req.url;
      if (path === "/text") {
        res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(`hello ${req.method}`);
      } else if (path === "/plainx") {
        res.writeHead(200, { "content-type": "text/plainx" }).end("not text/plain");
      } else if (path === "/plain-params") {
        res.writeHead(200, { "content-type": "Text/Plain ; charset=UTF-8; format=flowed" }).end("fine");
      } else if (path === "/html") {
        res.writeHead(200, { "content-type": "text/html" }).end("<b>no</b>");
      } else if (path === "/json") {
        res.writeHead(200, { "content-type": "application/json" }).end('{"points": 42, "name": "Alice"}');
      } else if (path === "/broken-json") {
        res.writeHead(200, { "content-type": "application/json" }).end("{nope");
      } else if (path === "/fail") {
        res.writeHead(500, { "content-type": "text/plain" }).end("boom");
      } else if (path === "/big") {
        res.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(100_000));
      } else if (path === "/big-chunked") {
        res.writeHead(200, { "content-type": "text/plain" });
        for (let i = 0; i < 50; i++) res.write("y".repeat(100));
        res.end();
      } else if (path === "/trickle") {
        // Headers at once, then a byte every 50 ms for 3 s: never idle long enough for a body timeout.
        res.writeHead(200, { "content-type": "text/plain" });
        const drip = setInterval(() => res.write("."), 50);
        const stop = setTimeout(() => {
          clearInterval(drip);
          res.end();
        }, 3_000);
        res.on("close", () => {
          clearInterval(drip);
          clearTimeout(stop);
          trickleFinished(res.writableFinished);
        });
      } else if (path === "/big-redirect") {
        res.writeHead(302, { location: "/text", "content-type": "text/plain" }).end("z".repeat(5_000));
      } else if (path.startsWith("/redirect-to?")) {
        res.writeHead(302, { location: decodeURIComponent(path.slice("/redirect-to?".length)) }).end();
      } else if (path === "/see-other") {
        res.writeHead(303, { location: "/text" }).end();
      } else if (path === "/loop") {
        res.writeHead(307, { location: "/loop" }).end();
      } else {
        res.writeHead(404).end();
      }
    });
    other = await startLoopbackServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" }).end("secret internal data");
    }, "127.0.0.2");
    slow = await startLoopbackServer(() => {
      /* never answers */
    });
  });

  afterAll(async () => {
    await Promise.all([allowed.close(), impatient.close(), guarded.close()]);
    await Promise.all([text.close(), other.close(), slow.close()]);
  });

  it("refuses a loopback server that is not allowlisted and sends it nothing", async () => {
    const before = text.received.length;
    expect(await codeOf(proxyPass(guarded, ctx, `${text.origin}/text`, { event: {}, command: {}, args: [] }))).toBe(NET_ERROR_CODES.address);
    const port = new URL(text.origin).port;
    // A name that resolves to loopback is refused on the resolved address.
    const byName = await codeOf(proxyPass(guarded, ctx, `http://localhost:${port}/text`, { event: {}, command: {}, args: [] }));
    expect(byName).toBe(NET_ERROR_CODES.address);
    expect(text.received.length).toBe(before);
  });

  it("proxy_pass POSTs a signed {version, event, command, args} body and returns the text reply", async () => {
    const event = { id: "e1", message: "!bal" };
    const command = { command: "bal" };
    const reply = await proxyPass(allowed, ctx, `${text.origin}/text`, { event, command, args: ["!bal"] });
    expect(reply).toBe("hello POST");
    const last = text.received.at(-1);
    expect(last?.method).toBe("POST");
    expect(last?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(last?.body ?? "")).toEqual({ version: 1, event, command, args: ["!bal"] });
    const ok = verifyOvationSignature({
      secret: SECRET,
      timestamp: last?.headers["x-ovation-timestamp"] as string,
      signature: last?.headers["x-ovation-signature"] as string,
      body: last?.body ?? "",
    });
    expect(ok).toBe(true);
    expect(
      verifyOvationSignature({
        secret: "another-secret",
        timestamp: last?.headers["x-ovation-timestamp"] as string,
        signature: last?.headers["x-ovation-signature"] as string,
        body: last?.body ?? "",
      }),
    ).toBe(false);
  });

  it("proxy_pass refuses replies that are not text/plain or not 2xx", async () => {
    const payload = { event: {}, command: {}, args: [] };
    expect(await codeOf(proxyPass(allowed, ctx, `${text.origin}/html`, payload))).toBe(NET_ERROR_CODES.contentType);
    // Issue 10: the media type is parsed, not prefix-matched.
    expect(await codeOf(proxyPass(impatient, ctx, `${text.origin}/plainx`, payload))).toBe(NET_ERROR_CODES.contentType);
    expect(await proxyPass(impatient, ctx, `${text.origin}/plain-params`, payload)).toBe("fine");
    expect(await codeOf(proxyPass(allowed, ctx, `${text.origin}/fail`, payload))).toBe(NET_ERROR_CODES.status);
  });

  it("an allowlisted localhost never opens the server's own port unless the entry names it (issue 10)", async () => {
    const ownPort = Number(new URL(text.origin).port);
    const payload = { event: {}, command: {}, args: [] };
    const self = () => [ownPort];
    const byName = new GuardedHttpClient({ allow: ["localhost", "127.0.0.1"], selfPorts: self });
    const named = new GuardedHttpClient({ allow: ["localhost:" + String(ownPort)], selfPorts: self });
    const otherPort = new GuardedHttpClient({ allow: ["localhost:1"], selfPorts: self });
    try {
      const before = text.received.length;
      expect(await codeOf(proxyPass(byName, ctx, `http://localhost:${ownPort}/text`, payload))).toBe(NET_ERROR_CODES.address);
      expect(await codeOf(proxyPass(byName, ctx, `http://127.0.0.1:${ownPort}/text`, payload))).toBe(NET_ERROR_CODES.address);
      expect(await codeOf(proxyPass(byName, ctx, `http://[::ffff:127.0.0.1]:${ownPort}/text`, payload))).toBe(NET_ERROR_CODES.address);
      expect(await codeOf(proxyPass(otherPort, ctx, `http://localhost:${ownPort}/text`, payload))).toBe(NET_ERROR_CODES.address);
      expect(text.received.length).toBe(before);
      expect(await proxyPass(named, ctx, `http://localhost:${ownPort}/text`, payload)).toBe("hello POST");
      // Without selfPorts (or on another port) the same entry reaches the local service.
      expect(await proxyPass(impatient, ctx, `http://127.0.0.1:${ownPort}/text`, payload)).toBe("hello POST");
    } finally {
      await Promise.all([byName.close(), named.close(), otherPort.close()]);
    }
  });

  it("json returns parsed JSON, null on failures, and throws on refusals", async () => {
    expect(await fetchJson(allowed, ctx, "get", `${text.origin}/json`)).toEqual({ points: 42, name: "Alice" });
    expect(text.received.at(-1)?.headers["x-ovation-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(await fetchJson(allowed, ctx, "GET", `${text.origin}/broken-json`)).toBeNull();
    expect(await fetchJson(allowed, ctx, "GET", `${text.origin}/fail`)).toBeNull();
    expect(await fetchJson(allowed, ctx, "GET", `${text.origin}/big`)).toBeNull();
    expect(await codeOf(fetchJson(allowed, ctx, "TRACE", `${text.origin}/json`))).toBe(NET_ERROR_CODES.method);
    expect(await codeOf(fetchJson(guarded, ctx, "GET", `${text.origin}/json`))).toBe(NET_ERROR_CODES.address);
  });

  it("re-checks redirects: a redirect to a private address is refused and never reached", async () => {
    const payload = { event: {}, command: {}, args: [] };
    const toOther = `${text.origin}/redirect-to?${encodeURIComponent(`${other.origin}/`)}`;
    expect(await codeOf(proxyPass(allowed, ctx, toOther, payload))).toBe(NET_ERROR_CODES.address);
    expect(other.received.length).toBe(0);
    const toMetadata = `${text.origin}/redirect-to?${encodeURIComponent("http://169.254.169.254/latest/meta-data/")}`;
    expect(await codeOf(proxyPass(allowed, ctx, toMetadata, payload))).toBe(NET_ERROR_CODES.address);
    const toFile = `${text.origin}/redirect-to?${encodeURIComponent("file:///etc/passwd")}`;
    expect(await codeOf(proxyPass(allowed, ctx, toFile, payload))).toBe(NET_ERROR_CODES.scheme);
  });

  it("follows allowed redirects (303 turns POST into GET) and stops redirect loops", async () => {
    expect(await proxyPass(allowed, ctx, `${text.origin}/see-other`, { event: {}, command: {}, args: [] })).toBe("hello GET");
    expect(await codeOf(proxyPass(allowed, ctx, `${text.origin}/loop`, { event: {}, command: {}, args: [] }))).toBe(NET_ERROR_CODES.redirects);
  });

  it("caps the response size, with and without content-length", async () => {
    const payload = { event: {}, command: {}, args: [] };
    expect(await codeOf(proxyPass(allowed, ctx, `${text.origin}/big`, payload))).toBe(NET_ERROR_CODES.tooLarge);
    expect(await codeOf(proxyPass(allowed, ctx, `${text.origin}/big-chunked`, payload))).toBe(NET_ERROR_CODES.tooLarge);
  });

  it("counts a redirect's body against the cap too", async () => {
    expect(await codeOf(proxyPass(allowed, ctx, `${text.origin}/big-redirect`, { event: {}, command: {}, args: [] }))).toBe(NET_ERROR_CODES.tooLarge);
  });

  it("stops a reply whose body trickles in past the deadline", async () => {
    const error = await proxyPass(impatient, ctx, `${text.origin}/trickle`, { event: {}, command: {}, args: [] }).catch((e: unknown) => e);
    expect((error as NetError).code).toBe(NET_ERROR_CODES.timeout);
    expect((error as NetError).message).toMatch(/within 300 ms/);
    // The client dropped the connection mid-body: the server never finished writing the reply.
    expect(await trickleClosed).toBe(false);
  });

  it("gives up after the timeout", async () => {
    const error = await proxyPass(impatient, ctx, `${slow.origin}/`, { event: {}, command: {}, args: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetError);
    expect((error as NetError).code).toBe(NET_ERROR_CODES.timeout);
    expect((error as NetError).message).toMatch(/within 300 ms/);
  });

  it("gives up after 5 s by default", { timeout: 30_000 }, async () => {
    const patient = new GuardedHttpClient({ allow: ["127.0.0.1"] });
    try {
      const refused = await proxyPass(patient, ctx, `${slow.origin}/`, { event: {}, command: {}, args: [] }).catch((e: unknown) => e);
      expect((refused as NetError).code).toBe(NET_ERROR_CODES.timeout);
      expect((refused as NetError).message).toMatch(/within 5000 ms/);
    } finally {
      await patient.close();
    }
  });

  it("connects to the checked address: DNS is resolved once per connection and filtered", async () => {
    const resolved: string[] = [];
    const port = new URL(text.origin).port;
    const pinned = new GuardedHttpClient({
      allow: ["127.0.0.1"],
      resolve: async (hostname) => {
        resolved.push(hostname);
        return [
          { address: "10.0.0.7", family: 4 },
          { address: "127.0.0.1", family: 4 },
        ];
      },
    });
    try {
      const reply = await proxyPass(pinned, ctx, `http://bot-receiver.test:${port}/text`, { event: {}, command: {}, args: [] });
      expect(reply).toBe("hello POST");
      expect(text.received.at(-1)?.headers.host).toBe(`bot-receiver.test:${port}`);
      expect(resolved).toEqual(["bot-receiver.test"]);
      const refusing = new GuardedHttpClient({ resolve: async () => [{ address: "169.254.169.254", family: 4 }] });
      const error = await proxyPass(refusing, ctx, "http://metadata.test/", { event: {}, command: {}, args: [] }).catch((e: unknown) => e);
      await refusing.close();
      expect((error as NetError).code).toBe(NET_ERROR_CODES.address);
      expect((error as NetError).message).toContain("metadata.test is resolved to 169.254.169.254, a link-local address");
    } finally {
      await pinned.close();
    }
  });

  it("reports a name that does not resolve", async () => {
    const client = new GuardedHttpClient({ resolve: async () => Promise.reject(new Error("ENOTFOUND")) });
    expect(await codeOf(proxyPass(client, ctx, "http://nowhere.test/", { event: {}, command: {}, args: [] }))).toBe(NET_ERROR_CODES.dns);
    await client.close();
  });
});

describe("GuardedHttpClient rate limit", () => {
  it("allows the configured calls per channel per minute, with a fake clock", async () => {
    const server = await startLoopbackServer((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("ok"));
    let now = 1_000_000;
    const client = new GuardedHttpClient({ allow: ["127.0.0.1"], callsPerMinute: 3, now: () => now });
    const call = (channel: string) => proxyPass(client, { channel, signingSecret: SECRET }, `${server.origin}/`, { event: {}, command: {}, args: [] });
    try {
      for (let i = 0; i < 3; i++) {
        expect(await call("a")).toBe("ok");
        now += 1_000;
      }
      const error = await call("a").catch((e: unknown) => e);
      expect((error as NetError).code).toBe(NET_ERROR_CODES.rateLimited);
      expect((error as NetError).message).toMatch(/too many outbound calls; try again in 57 s/);
      expect(await call("b")).toBe("ok");
      now += 58_000;
      expect(await call("a")).toBe("ok");
      expect(server.received.length).toBe(5);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("defaults to 15 calls a minute", async () => {
    const server = await startLoopbackServer((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("ok"));
    const now = 5_000;
    const client = new GuardedHttpClient({ allow: ["127.0.0.1"], now: () => now });
    try {
      const results = [];
      for (let i = 0; i < 16; i++) {
        results.push(await codeOf(proxyPass(client, ctx, `${server.origin}/`, { event: {}, command: {}, args: [] })));
      }
      expect(results.filter((r) => r === "resolved")).toHaveLength(15);
      expect(results[15]).toBe(NET_ERROR_CODES.rateLimited);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
