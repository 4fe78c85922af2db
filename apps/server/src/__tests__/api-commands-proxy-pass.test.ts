import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { OvationApp } from "../app.js";
import { bearer, seedUser, tempDataDir, testApp } from "./helpers.js";

const data = tempDataDir();
const guarded = tempDataDir();
let app: OvationApp;
let guardedApp: OvationApp;
let target: Server;
let targetUrl: string;
const received: Array<{ method: string; body: Record<string, unknown> }> = [];

beforeAll(async () => {
  target = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => {
      received.push({ method: req.method ?? "", body: JSON.parse(body || "{}") as Record<string, unknown> });
      res.writeHead(200, { "content-type": "text/plain" }).end("  Your balance is 42 points  ");
    });
  });
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/api/commands`;
  app = await testApp(data.dir, { OVATION_OUTBOUND_ALLOWLIST: "127.0.0.1" });
  guardedApp = await testApp(guarded.dir);
});
afterAll(async () => {
  await app.close();
  await guardedApp.close();
  await new Promise<void>((resolve) => target.close(() => resolve()));
  data.remove();
  guarded.remove();
});

describe("the reference's proxy_pass command", () => {
  test("registers as written and answers with the endpoint's text/plain reply, trimmed", async () => {
    const alice = seedUser(app, "Alice");
    const body = { command: "bal", response: `{{ proxy_pass('${targetUrl}') }}`, command_aliases: ["$"] };
    const created = await app.inject({ method: "POST", url: `/v1/bots/${alice.userId}/commands`, headers: bearer(alice.token), payload: body });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ command: "bal", commands: ["bal", "$"] });
    const res = await app.inject({ method: "POST", url: "/v1/bots/@me/commands/test", headers: bearer(alice.token), payload: { message: "!$", event: { user: { username: "Zoe" } } } });
    expect(res.json()).toMatchObject({ matched: "bal", text: "Your balance is 42 points", error: null });
    expect(received.at(-1)?.method).toBe("POST");
    expect(received.at(-1)?.body).toMatchObject({ event: { message: "!$", user: { username: "Zoe" } }, command: { command: "bal" } });
  }, 60_000);

  test("without OVATION_OUTBOUND_ALLOWLIST a loopback target is refused, and the dry run says why", async () => {
    const bob = seedUser(guardedApp, "Bob");
    const before = received.length;
    await guardedApp.inject({ method: "POST", url: "/v1/bots/@me/commands", headers: bearer(bob.token), payload: { command: "bal", response: `{{ proxy_pass('${targetUrl}') }}` } });
    const res = await guardedApp.inject({ method: "POST", url: "/v1/bots/@me/commands/test", headers: bearer(bob.token), payload: { message: "!bal" } });
    expect(res.json()).toMatchObject({ matched: "bal", status: "error" });
    expect(res.json().error).toEqual(expect.any(String));
    expect(received.length).toBe(before);
  }, 60_000);
});
