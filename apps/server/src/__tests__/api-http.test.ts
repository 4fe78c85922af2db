import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildApp } from "../app.js";
import type { OvationApp } from "../app.js";
import { bearer, seedUser, tempDataDir, testApp, testConfig } from "./helpers.js";

const data = tempDataDir();
let app: OvationApp;
let alice: { userId: number; token: string };

beforeAll(async () => {
  app = await testApp(data.dir, { OVATION_RATE_LIMIT_PER_MINUTE: "5", OVATION_BODY_LIMIT_BYTES: "1024" });
  alice = seedUser(app, "Alice");
});
afterAll(async () => {
  await app.close();
  data.remove();
});

describe("HTTP conventions", () => {
  test("an unknown route is a JSON 404 with a code", async () => {
    const res = await app.inject({ method: "GET", url: "/v1/nothing" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: "OVATION_ERR_HTTP_NOT_FOUND" });
  });

  test("a body over the limit is 413, malformed JSON and prototype keys are 400, an unknown media type 415", async () => {
    const big = await app.inject({ method: "POST", url: "/v1/alerts/test", headers: { ...bearer(alice.token), "content-type": "application/json" }, payload: JSON.stringify({ template: "follow", data: { x: "y".repeat(2000) } }) });
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe("OVATION_ERR_HTTP_BODY_TOO_LARGE");
    const bad = await app.inject({ method: "POST", url: "/v1/alerts/test", headers: { ...bearer(alice.token), "content-type": "application/json" }, payload: "{nope" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe("OVATION_ERR_HTTP_BAD_REQUEST");
    const xml = await app.inject({ method: "POST", url: "/v1/alerts/test", headers: { ...bearer(alice.token), "content-type": "application/xml" }, payload: "<a/>" });
    expect(xml.statusCode).toBe(415);
    expect(xml.json().code).toBe("OVATION_ERR_HTTP_UNSUPPORTED_MEDIA_TYPE");
    const proto = await app.inject({ method: "POST", url: "/v1/alerts/test", headers: { ...bearer(alice.token), "content-type": "application/json" }, payload: '{"__proto__":{"x":1},"template":"follow"}' });
    expect(proto.statusCode).toBe(400);
  });

  test("the OpenAPI document lists every endpoint of the API", async () => {
    const res = await app.inject({ method: "GET", url: "/openapi.json" });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const path of [
      "/v1/alerts",
      "/v1/alerts/test",
      "/v1/browser-source/generate",
      "/v1/browser-source/{id}/regenerate",
      "/v1/alert-configs",
      "/v1/alert-configs/{id}/migrate",
      "/v1/alert-configs/{id}/activate",
      "/v1/users",
      "/v1/bots/{user}/commands",
      "/v1/bots/{user}/commands/test",
      "/v1/alerts/queue/skip",
      "/v1/alerts/queue/replay",
      "/health",
    ]) {
      expect(paths).toContain(path);
    }
    expect((await app.inject({ method: "GET", url: "/docs" })).statusCode).toBeLessThan(400);
  });

  test("the OpenAPI document has no empty union or intersection (a schema the generator could not read)", async () => {
    const res = await app.inject({ method: "GET", url: "/openapi.json" });
    const empty: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) node.forEach((item, i) => walk(item, `${at}/${i}`));
      else if (node !== null && typeof node === "object") {
        for (const [key, value] of Object.entries(node)) {
          if (["anyOf", "oneOf", "allOf"].includes(key) && Array.isArray(value) && value.length === 0) empty.push(`${at}/${key}`);
          walk(value, `${at}/${key}`);
        }
      }
    };
    walk(res.json(), "#");
    expect(empty).toEqual([]);
    // The alert template of POST /v1/alerts is a union of a stored template's name and an inline template.
    const body = JSON.stringify(res.json().paths["/v1/alerts"].post.requestBody);
    expect(body).toMatch(/"(anyOf|oneOf)":\[\{/);
  });

  test("more requests than the limit in a minute get 429 with Retry-After; /health is not limited", async () => {
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 8; i++) {
      const res = await app.inject({ method: "GET", url: "/v1/users", headers: bearer(alice.token) });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        retryAfter = String(res.headers["retry-after"]);
        expect(res.json().code).toBe("OVATION_ERR_HTTP_RATE_LIMITED");
      }
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    for (let i = 0; i < 8; i++) expect((await app.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);
  });
});

describe("buildApp failures", () => {
  test("a plugin that fails to register leaves the data directory usable", async () => {
    const dir = tempDataDir();
    const failing = async () => {
      throw new Error("plugin failed");
    };
    await expect(buildApp({ config: testConfig(dir.dir), plugins: [failing] })).rejects.toThrow("plugin failed");
    const next = await testApp(dir.dir);
    expect((await next.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);
    await next.close();
    dir.remove();
  });
});

describe("failed bearer-token checks", () => {
  test("rotating invalid tokens from one address ends in 429, while another address is unaffected", async () => {
    const dir = tempDataDir();
    const limited = await testApp(dir.dir, { OVATION_RATE_LIMIT_PER_MINUTE: "100" });
    const bob = seedUser(limited, "Bob");
    try {
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 25; i++) {
        last = await limited.inject({ method: "GET", url: "/v1/users", headers: bearer(`ovpat_9_invalid${i}`), remoteAddress: "203.0.113.7" });
        statuses.push(last.statusCode);
      }
      expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
      expect(last?.json().code).toBe("OVATION_ERR_AUTH_TOO_MANY_FAILURES");
      expect(Number(last?.headers["retry-after"])).toBeGreaterThan(0);
      // Someone else's failures never lock a valid credential out: Bob's token from the throttled address works.
      const valid = await limited.inject({ method: "GET", url: "/v1/users", headers: bearer(bob.token), remoteAddress: "203.0.113.7" });
      expect(valid.statusCode).toBe(200);
      const missing = await limited.inject({ method: "GET", url: "/v1/users", remoteAddress: "203.0.113.7" });
      expect(missing.statusCode).toBe(429);
      const other = await limited.inject({ method: "GET", url: "/v1/users", headers: bearer(bob.token), remoteAddress: "198.51.100.9" });
      expect(other.statusCode).toBe(200);
    } finally {
      await limited.close();
      dir.remove();
    }
  });

  test("one invalid token repeated from many addresses is throttled per credential", async () => {
    const dir = tempDataDir();
    const limited = await testApp(dir.dir, { OVATION_RATE_LIMIT_PER_MINUTE: "100" });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 22; i++) {
        const res = await limited.inject({ method: "GET", url: "/v1/users", headers: bearer("ovpat_9_the-same-guess"), remoteAddress: `198.51.100.${i + 1}` });
        statuses.push(res.statusCode);
      }
      expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
    } finally {
      await limited.close();
      dir.remove();
    }
  });
});
