import { createHash } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { connect as connectTcp } from "node:net";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { OvationApp } from "../app.js";
import { seedUser, tempDataDir, testApp } from "./helpers.js";
import { listen } from "./socket-helpers.js";

// Issue 31, item 4: media uploads have a per-user quota (files and bytes), check the token (and the
// declared size) before reading a body, are idempotent when the same bytes race, live in private
// per-user folders (0700/0600) under addresses that reveal nothing about other users' uploads, and
// are deleted with the account.

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const png = (text: string, size = 0): Buffer => Buffer.concat([PNG_MAGIC, Buffer.from(text), Buffer.alloc(size)]);

const QUOTA_FILES = 3;
const QUOTA_BYTES = 200_000;
const data = tempDataDir();
const logLines: string[] = [];
let app: OvationApp;
let url: string;

function capturingLogger(): pino.Logger {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString("utf8"));
      done();
    },
  });
  return pino({ level: "warn" }, sink);
}

const env = { OVATION_MEDIA_QUOTA_FILES: String(QUOTA_FILES), OVATION_MEDIA_QUOTA_BYTES: String(QUOTA_BYTES) };

async function upload(token: string | null, body: Buffer, type = "image/png"): Promise<{ status: number; json: Record<string, unknown> }> {
  const headers: Record<string, string> = { "content-type": type, accept: "application/json" };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${url}/v1/media`, { method: "POST", headers, body });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** Sends only the head and the first bytes of a declared body; resolves with the answer and whether the server closed. */
function partialUpload(headers: string, declared: number): Promise<{ answer: string; closed: boolean }> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connectTcp(Number(port), "127.0.0.1");
    let answer = "";
    const finish = (closed: boolean) => {
      clearTimeout(limit);
      socket.destroy();
      resolve({ answer, closed });
    };
    const limit = setTimeout(() => finish(false), 15_000);
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    socket.on("close", () => finish(true));
    socket.on("error", () => undefined);
    socket.write(`POST /v1/media HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/png\r\nContent-Length: ${declared}\r\n${headers}\r\n`);
    socket.write(PNG_MAGIC);
  });
}

beforeAll(async () => {
  app = await testApp(data.dir, env, { logger: capturingLogger() });
  url = await listen(app);
});
afterAll(async () => {
  await app.close();
  data.remove();
});

describe("media upload limits", () => {
  test("a user past the file quota gets 422 naming it; the same bytes again still answer; other users are not counted", async () => {
    const { token } = seedUser(app, "Quota", ["alerts:manage"]);
    for (let i = 0; i < QUOTA_FILES; i++) expect((await upload(token, png(`file ${i}`))).status).toBe(201);
    const over = await upload(token, png("one too many"));
    expect(over.status).toBe(422);
    expect(over.json).toMatchObject({ code: "OVATION_ERR_MEDIA_QUOTA_FILES" });
    expect(String(over.json.message)).toContain(`at most ${QUOTA_FILES} media files (OVATION_MEDIA_QUOTA_FILES)`);
    const again = await upload(token, png("file 0"));
    expect(again.status).toBe(200);
    expect((await upload(seedUser(app, "Other", ["alerts:manage"]).token, png("one too many"))).status).toBe(201);
    // GET /v1/media shows the usage and the quota; deleting one file makes room for another.
    const listed = await fetch(`${url}/v1/media`, { headers: { authorization: `Bearer ${token}`, accept: "application/json" } });
    const body = (await listed.json()) as { data: Array<{ url: string }>; usage: { files: number }; quota: { files: number; bytes: number } };
    expect(body.usage.files).toBe(QUOTA_FILES);
    expect(body.quota).toEqual({ files: QUOTA_FILES, bytes: QUOTA_BYTES });
    const name = String(body.data[0]?.url.split("/").pop());
    const removed = await fetch(`${url}/v1/media/${name}`, { method: "DELETE", headers: { authorization: `Bearer ${token}`, accept: "application/json" } });
    expect(removed.status).toBe(204);
    expect((await fetch(`${url}/v1/media/${name}`, { method: "DELETE", headers: { authorization: `Bearer ${token}`, accept: "application/json" } })).status).toBe(404);
    expect((await upload(token, png("one too many"))).status).toBe(201);
  });

  test("a user past the byte quota gets 413 naming it, also before the body is read when the declared size cannot fit", async () => {
    const { token } = seedUser(app, "Bytes", ["alerts:manage"]);
    expect((await upload(token, png("big", 120_000))).status).toBe(201);
    const over = await upload(token, png("bigger", 120_000));
    expect(over.status).toBe(413);
    expect(over.json).toMatchObject({ code: "OVATION_ERR_MEDIA_QUOTA_BYTES" });
    expect(String(over.json.message)).toContain(`at most ${QUOTA_BYTES} bytes (OVATION_MEDIA_QUOTA_BYTES)`);
    // 4 MB declared, 8 bytes sent: the answer comes without the rest of the body.
    const early = await partialUpload(`Authorization: Bearer ${token}\r\n`, 4_000_000);
    expect(early.answer).toMatch(/^HTTP\/1\.1 413/);
    expect(early.answer).toContain("OVATION_ERR_MEDIA_QUOTA_BYTES");
    expect(early.closed).toBe(true);
  });

  test("an unauthenticated upload is refused before its body is read", async () => {
    const refused = await partialUpload("", 5 * 1024 * 1024);
    expect(refused.answer).toMatch(/^HTTP\/1\.1 401/);
    expect(refused.answer.toLowerCase()).toContain("connection: close");
    expect(refused.closed).toBe(true);
    const forged = await partialUpload("Authorization: Bearer ovpat_1_forged-token-forged-token-forged-token-xx\r\n", 5 * 1024 * 1024);
    expect(forged.answer).toMatch(/^HTTP\/1\.1 401/);
  });

  test("12 concurrent uploads of the same bytes all succeed with the same media, stored once", async () => {
    const { userId, token } = seedUser(app, "Racer", ["alerts:manage"]);
    const bytes = png("raced", 50_000);
    const results = await Promise.all(Array.from({ length: 12 }, () => upload(token, bytes)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.json.url)).size).toBe(1);
    expect(readdirSync(join(data.dir, "media", String(userId)))).toHaveLength(1);
    const served = await fetch(String(results[0]?.json.url).replace("http://127.0.0.1:8080", url));
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  });
});

describe("media addresses and files", () => {
  test("the same bytes get a different address per user, and no address tells whether anyone uploaded given bytes", async () => {
    const bytes = png("shared meme");
    const one = await upload(seedUser(app, "One", ["alerts:manage"]).token, bytes);
    const two = await upload(seedUser(app, "Two", ["alerts:manage"]).token, bytes);
    expect([one.status, two.status]).toEqual([201, 201]);
    expect(one.json.url).not.toBe(two.json.url);
    const sha = createHash("sha256").update(bytes).digest("hex");
    expect(String(one.json.url)).not.toContain(sha);
    // The content-addressed probe of earlier versions finds nothing.
    expect((await fetch(`${url}/media/${sha}.png`)).status).toBe(404);
    expect((await fetch(`${url}/media/1/${sha}.png`)).status).toBe(404);
  });

  test("media folders are 0700 and files 0600 when written; a restart finds nothing to tighten", async () => {
    const { userId, token } = seedUser(app, "Modes", ["alerts:manage"]);
    expect((await upload(token, png("private"))).status).toBe(201);
    const mediaDir = join(data.dir, "media");
    expect(statSync(mediaDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(mediaDir, String(userId))).mode & 0o777).toBe(0o700);
    for (const name of readdirSync(join(mediaDir, String(userId)))) expect(statSync(join(mediaDir, String(userId), name)).mode & 0o777).toBe(0o600);
    expect(statSync(join(mediaDir, ".media-key")).mode & 0o777).toBe(0o600);
    await app.close();
    logLines.length = 0;
    app = await testApp(data.dir, env, { logger: capturingLogger() });
    url = await listen(app);
    expect(logLines.filter((line) => line.includes("permissions tightened"))).toEqual([]);
  });

  test("deleting the account deletes its media", async () => {
    const user = app.ovation.repos.users.create({ name: "Leaving", email: null });
    const { token } = app.ovation.repos.tokens.create({ user_id: user.id, name: "t", scopes: ["user:manage", "alerts:manage"] });
    const stored = await upload(token, png("goodbye"));
    const address = String(stored.json.url).replace("http://127.0.0.1:8080", url);
    expect((await fetch(address)).status).toBe(200);
    const deleted = await fetch(`${url}/api/users/@me`, { method: "DELETE", headers: { authorization: `Bearer ${token}`, accept: "application/json" } });
    expect(deleted.status).toBe(204);
    expect((await fetch(address)).status).toBe(404);
    expect(readdirSync(join(data.dir, "media")).includes(String(user.id))).toBe(false);
  });
});
