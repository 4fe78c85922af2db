import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { verifyOvationSignature } from "@ovation/core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { OvationApp } from "../app.js";
import { ALL_SCOPES, bearer, seedUser, tempDataDir, testApp } from "./helpers.js";

/** A user without an email address: the signing secret needs no EAT (no code could be mailed). */
function seedUserWithoutEmail(app: OvationApp, name: string): { userId: number; token: string } {
  const user = app.ovation.repos.users.create({ name, email: null });
  const { token } = app.ovation.repos.tokens.create({ user_id: user.id, name: "test", scopes: ALL_SCOPES });
  return { userId: user.id, token };
}

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

describe("signed outbound calls", () => {
  test("proxy_pass is signed with the user's stored secret, which survives a restart and can be rotated", async () => {
    const dir = tempDataDir();
    let signedApp = await testApp(dir.dir, { OVATION_OUTBOUND_ALLOWLIST: "127.0.0.1" });
    const carol = seedUserWithoutEmail(signedApp, "Carol");
    const headers: Array<{ timestamp: string; signature: string; body: string }> = [];
    const receiver = createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (c: string) => (body += c));
      req.on("end", () => {
        headers.push({ timestamp: String(req.headers["x-ovation-timestamp"]), signature: String(req.headers["x-ovation-signature"]), body });
        res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    try {
      const first = await signedApp.inject({ method: "GET", url: "/v1/bots/@me/signing-secret", headers: bearer(carol.token) });
      expect(first.statusCode).toBe(200);
      const secret = first.json().secret as string;
      expect(secret).toMatch(/^ovsig_[A-Za-z0-9_-]{43}$/);
      await signedApp.inject({ method: "POST", url: "/v1/bots/@me/commands", headers: bearer(carol.token), payload: { command: "hook", response: `{{ proxy_pass('${url}') }}` } });
      const dry = await signedApp.inject({ method: "POST", url: "/v1/bots/@me/commands/test", headers: bearer(carol.token), payload: { message: "!hook" } });
      expect(dry.json()).toMatchObject({ text: "ok", error: null });
      const call = headers.at(-1)!;
      expect(verifyOvationSignature({ secret, ...call })).toBe(true);
      expect(verifyOvationSignature({ secret: `${secret}x`, ...call })).toBe(false);

      // The secret is stored: a restart on the same data directory signs with the same one.
      await signedApp.close();
      signedApp = await testApp(dir.dir, { OVATION_OUTBOUND_ALLOWLIST: "127.0.0.1" });
      const again = await signedApp.inject({ method: "GET", url: "/v1/bots/@me/signing-secret", headers: bearer(carol.token) });
      expect(again.json().secret).toBe(secret);
      await signedApp.inject({ method: "POST", url: "/v1/bots/@me/commands/test", headers: bearer(carol.token), payload: { message: "!hook" } });
      expect(verifyOvationSignature({ secret, ...headers.at(-1)! })).toBe(true);

      // Rotation: the next call verifies with the new secret only.
      const rotated = await signedApp.inject({ method: "POST", url: "/v1/bots/@me/signing-secret/rotate", headers: bearer(carol.token) });
      const fresh = rotated.json().secret as string;
      expect(fresh).not.toBe(secret);
      await signedApp.inject({ method: "POST", url: "/v1/bots/@me/commands/test", headers: bearer(carol.token), payload: { message: "!hook" } });
      expect(verifyOvationSignature({ secret: fresh, ...headers.at(-1)! })).toBe(true);
      expect(verifyOvationSignature({ secret, ...headers.at(-1)! })).toBe(false);

      // Another user's secret is not readable.
      const dave = seedUserWithoutEmail(signedApp, "Dave");
      const foreign = await signedApp.inject({ method: "GET", url: `/v1/bots/${carol.userId}/signing-secret`, headers: bearer(dave.token) });
      expect(foreign.statusCode).toBe(403);
    } finally {
      await signedApp.close();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
      dir.remove();
    }
  }, 90_000);
});

describe("the server's own API", () => {
  test("is not reachable from templates through an allowlisted 127.0.0.1 unless the entry names its port (issue 10)", async () => {
    const dir = tempDataDir();
    const local = await testApp(dir.dir, { OVATION_OUTBOUND_ALLOWLIST: "localhost,127.0.0.1" });
    try {
      await local.listen({ port: 0, host: "127.0.0.1" });
      const port = (local.server.address() as AddressInfo).port;
      const carol = seedUserWithoutEmail(local, "Carol");
      const save = await local.inject({ method: "POST", url: "/v1/bots/@me/commands", headers: bearer(carol.token), payload: { command: "me", response: `{{ proxy_pass('http://127.0.0.1:${port}/health') }}` } });
      expect(save.statusCode).toBe(201);
      const run = await local.inject({ method: "POST", url: "/v1/bots/@me/commands/test", headers: bearer(carol.token), payload: { message: "!me" } });
      expect(run.json()).toMatchObject({ status: "error", error: expect.stringContaining("own API") });
      // Another local service on the allowlisted address stays reachable.
      await local.inject({ method: "POST", url: "/v1/bots/@me/commands", headers: bearer(carol.token), payload: { command: "bal", response: `{{ proxy_pass('${targetUrl}') }}` } });
      const other = await local.inject({ method: "POST", url: "/v1/bots/@me/commands/test", headers: bearer(carol.token), payload: { message: "!bal" } });
      expect(other.json()).toMatchObject({ status: "sent", text: "Your balance is 42 points" });
    } finally {
      await local.close();
      dir.remove();
    }
  });
});
