import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import fastifyRateLimit from "@fastify/rate-limit";
import Fastify from "fastify";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimitKey } from "../../http/rate-limit-key.js";
import { mountPluginRoutes } from "../plugin-services.js";

/** POSTs to the webhook from `localAddress` (any 127.x.y.z is loopback on Linux) with an `Authorization` header of the caller's choosing. */
function post(port: number, localAddress: string, authorization: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, localAddress, method: "POST", path: "/v1/platforms/hooky/webhook", headers: { authorization, "content-type": "application/json" } }, (res) => {
      res.resume();
      res.once("end", () => resolve(res.statusCode ?? 0));
    });
    req.once("error", reject);
    req.end("{}");
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
