import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import fastifyRateLimit from "@fastify/rate-limit";
import Fastify from "fastify";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimitKey } from "../../http/rate-limit-key.js";
import { RefusalCounter, mountPluginRoutes } from "../plugin-services.js";

/** POSTs to the webhook from `localAddress` (any 127.x.y.z is loopback on Linux) with an `Authorization` header of the caller's choosing. */
function post(port: number, localAddress: string, authorization: string, body = "{}", path = "/v1/platforms/hooky/webhook"): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, localAddress, method: "POST", path, headers: { authorization, "content-type": "application/json" } }, (res) => {
      res.resume();
      res.once("end", () => resolve(res.statusCode ?? 0));
    });
    req.once("error", reject);
    req.end(body);
  });
}

describe("a plugin's webhook route is limited by the caller's address, not by a header the caller chooses (issue 31, item 8)", () => {
  let app: FastifyInstance;
  let port: number;
  let handled = 0;

  beforeAll(async () => {
    app = Fastify();
    // The app's global limit, as app.ts registers it: keyed on the credential of `Authorization`.
    await app.register(fastifyRateLimit, { global: true, max: 1000, timeWindow: 60_000, keyGenerator: rateLimitKey });
    await mountPluginRoutes(app, "hooky", [
      {
        method: "POST",
        path: "/webhook",
        perMinute: 5,
        limit: "every",
        bodyLimit: 1024,
        handler: async () => {
          handled += 1;
          return { status: 200, body: { status: "ok" } };
        },
      },
    ]);
    await app.listen({ host: "127.0.0.1", port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app.close();
  });

  it("a new random Authorization header per call buys no extra calls; another address has its own allowance", async () => {
    const answers: number[] = [];
    for (let i = 0; i < 8; i++) answers.push(await post(port, "127.0.0.1", `Bearer random-${i}-${Math.random()}`));
    expect(answers).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect(handled).toBe(5);
    // Without any Authorization header at all: the same bucket.
    expect(await post(port, "127.0.0.1", "")).toBe(429);
    // Another source address counts on its own.
    expect(await post(port, "127.0.0.2", "Bearer whatever")).toBe(200);
    expect(handled).toBe(6);
  });
});

describe('a webhook limited on "refused" answers: signed deliveries are never throttled, bad senders are cut off', () => {
  let app: FastifyInstance;
  let port: number;
  let handled = 0;
  const hook = "/v1/platforms/signed/webhook";

  beforeAll(async () => {
    app = Fastify();
    await app.register(fastifyRateLimit, { global: true, max: 1000, timeWindow: 60_000, keyGenerator: rateLimitKey });
    await mountPluginRoutes(app, "signed", [
      {
        method: "POST",
        path: "/webhook",
        perMinute: 5,
        limit: "refused",
        bodyLimit: 1024,
        // Stands for a signature check: "good" passes, "replay" is a known delivery (200, but refused), anything else fails.
        handler: async (request) => {
          handled += 1;
          if (request.body === "good") return { status: 200, body: { status: "ok" } };
          if (request.body === "replay") return { status: 200, refused: true, body: { reason: "replay" } };
          return { status: 403, body: { reason: "bad_signature" } };
        },
      },
    ]);
    await app.listen({ host: "127.0.0.1", port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app.close();
  });

  it("passes 30 good deliveries from one address over an allowance of 5, then refuses the address after 5 refusals", async () => {
    const good: number[] = [];
    for (let i = 0; i < 30; i++) good.push(await post(port, "127.0.0.1", "", "good", hook));
    expect(good.every((status) => status === 200)).toBe(true);
    expect(handled).toBe(30);
    // Three bad signatures and two replays: five refusals use up the allowance.
    const refused = [await post(port, "127.0.0.1", "", "bad", hook), await post(port, "127.0.0.1", "", "bad", hook), await post(port, "127.0.0.1", "", "replay", hook), await post(port, "127.0.0.1", "", "bad", hook), await post(port, "127.0.0.1", "", "replay", hook)];
    expect(refused).toEqual([403, 403, 200, 403, 200]);
    // Cut off: even a good delivery from that address is answered 429 without reaching the handler.
    expect(await post(port, "127.0.0.1", "", "good", hook)).toBe(429);
    expect(handled).toBe(35);
    // Another address is not.
    expect(await post(port, "127.0.0.3", "", "good", hook)).toBe(200);
    expect(handled).toBe(36);
  });

  it("the counter forgets an address a minute after its first refusal", () => {
    let now = 1_000_000;
    const counter = new RefusalCounter(2, () => now);
    counter.refused("10.0.0.1");
    expect(counter.retryAfter("10.0.0.1")).toBe(0);
    counter.refused("10.0.0.1");
    expect(counter.retryAfter("10.0.0.1")).toBe(60);
    now += 59_000;
    expect(counter.retryAfter("10.0.0.1")).toBe(1);
    now += 1_000;
    expect(counter.retryAfter("10.0.0.1")).toBe(0);
    counter.refused("10.0.0.1");
    expect(counter.retryAfter("10.0.0.1")).toBe(0);
  });
});
