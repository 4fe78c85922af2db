import { connect as connectTcp } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { OvationApp } from "../app.js";
import { ConfigError, loadConfig } from "../config.js";
import { seedUser, tempDataDir, testApp } from "./helpers.js";
import { listen } from "./socket-helpers.js";

// Issue 31, items 7 and 9: the per-token rate limit keys on the credential, not the header's
// spelling; slow headers and slow bodies are cut (408) after their configured timeouts; /docs is
// served under a CSP that forbids framing.

const data = tempDataDir();
let app: OvationApp;
let url: string;
let alice: { userId: number; token: string };
const LIMIT = 10;

beforeAll(async () => {
  app = await testApp(data.dir, { OVATION_RATE_LIMIT_PER_MINUTE: String(LIMIT), OVATION_HEADERS_TIMEOUT_SECONDS: "1", OVATION_BODY_TIMEOUT_SECONDS: "2" });
  alice = seedUser(app, "Alice");
  url = await listen(app);
});
afterAll(async () => {
  await app.close();
  data.remove();
});

/** Opens a raw connection, writes `head`, then one byte of body a second; resolves with what the server sent before it closed. */
function trickle(head: string, maxMs: number): Promise<{ answer: string; closed: boolean }> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connectTcp(Number(port), "127.0.0.1");
    let answer = "";
    let closed = false;
    const drip = setInterval(() => socket.write("x"), 500);
    const finish = () => {
      clearInterval(drip);
      clearTimeout(limit);
      socket.destroy();
      resolve({ answer, closed });
    };
    const limit = setTimeout(finish, maxMs);
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    socket.on("close", () => {
      closed = true;
      finish();
    });
    socket.on("error", () => undefined);
    socket.write(head);
  });
}

describe("the per-token rate limit", () => {
  test("counts one token once, however the Authorization header spells it", async () => {
    const spellings = [`Bearer ${alice.token}`, `bearer ${alice.token}`, `BEARER ${alice.token}`, `Bearer  ${alice.token}`, `Bearer\t${alice.token}`, `bEaReR ${alice.token} `, ` Bearer ${alice.token}`, `Bearer   ${alice.token}  `];
    let passed = 0;
    for (let round = 0; round < 3; round++) {
      for (const authorization of spellings) {
        const res = await app.inject({ method: "GET", url: "/v1/users", headers: { authorization, accept: "application/json" } });
        if (res.statusCode === 200) passed++;
        else expect(res.statusCode).toBe(429);
      }
    }
    expect(passed).toBe(LIMIT);
  });
});

describe("request timeouts", () => {
  test("a slow unauthenticated body is cut with 408 once the body timeout passes", async () => {
    const head = "POST /v1/alerts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{";
    const result = await trickle(head, 20_000);
    expect(result.closed).toBe(true);
    expect(result.answer).toMatch(/^HTTP\/1\.1 408/);
  }, 30_000);

  test("a slow media upload body is cut too", async () => {
    const head = "POST /v1/media HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/png\r\nContent-Length: 5000000\r\n\r\n";
    // Bob's own token: Alice's has used up its rate limit above.
    const bob = seedUser(app, "Bob");
    const result = await trickle(head.replace("\r\n\r\n", `\r\nAuthorization: Bearer ${bob.token}\r\n\r\n`), 20_000);
    expect(result.closed).toBe(true);
    expect(result.answer).toMatch(/^HTTP\/1\.1 408/);
  }, 30_000);

  test("slow headers are cut once the headers timeout passes", async () => {
    const result = await trickle("GET /v1/users HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", 20_000);
    expect(result.closed).toBe(true);
    expect(result.answer).toMatch(/^HTTP\/1\.1 408/);
  }, 30_000);

  test("the HTTP server takes the configured timeouts and keeps fastify's idle keep-alive (72 s)", () => {
    expect([app.server.headersTimeout, app.server.requestTimeout, app.server.keepAliveTimeout]).toEqual([1_000, 2_000, 72_000]);
  });

  test("the timeouts are configurable and validated by name", () => {
    expect(loadConfig({})).toMatchObject({ headersTimeoutMs: 20_000, bodyTimeoutMs: 30_000 });
    expect(loadConfig({ OVATION_HEADERS_TIMEOUT_SECONDS: "5", OVATION_BODY_TIMEOUT_SECONDS: "60" })).toMatchObject({ headersTimeoutMs: 5_000, bodyTimeoutMs: 60_000 });
    expect(() => loadConfig({ OVATION_BODY_TIMEOUT_SECONDS: "0" })).toThrow(/OVATION_BODY_TIMEOUT_SECONDS: must be a number of seconds between 1 and 3600/);
    expect(() => loadConfig({ OVATION_HEADERS_TIMEOUT_SECONDS: "soon" })).toThrow(/OVATION_HEADERS_TIMEOUT_SECONDS/);
    expect(() => loadConfig({ OVATION_HEADERS_TIMEOUT_SECONDS: "40", OVATION_BODY_TIMEOUT_SECONDS: "30" })).toThrow(ConfigError);
    expect(() => loadConfig({ OVATION_HEADERS_TIMEOUT_SECONDS: "40", OVATION_BODY_TIMEOUT_SECONDS: "30" })).toThrow(/OVATION_HEADERS_TIMEOUT_SECONDS: must not be longer than OVATION_BODY_TIMEOUT_SECONDS/);
  });
});

describe("/docs", () => {
  test("is served under a CSP that forbids framing, and X-Frame-Options DENY", async () => {
    for (const path of ["/docs", "/docs/", "/docs/static/index.html", "/docs/static/swagger-initializer.js"]) {
      const res = await fetch(`${url}${path}`, { redirect: "manual" });
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("default-src 'self'");
      expect(csp, path).toContain("object-src 'none'");
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
    }
  });
});
