import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { OvationApp } from "../app.js";
import { bearer, seedDefaultAlertSet, seedUser, tempDataDir, testApp } from "./helpers.js";

const data = tempDataDir();
let app: OvationApp;
let alice: { userId: number; token: string; uuid: string };
let setId: number;

beforeAll(async () => {
  app = await testApp(data.dir, { OVATION_BROWSER_SOURCE_URL: "http://127.0.0.1:8080/browser-source" });
  alice = seedUser(app, "Alice");
  setId = await seedDefaultAlertSet(app, alice.userId);
});
afterAll(async () => {
  await app.close();
  data.remove();
});

const generate = (payload: unknown, token = alice.token) =>
  app.inject({ method: "POST", url: "/v1/browser-source/generate", headers: bearer(token), payload: payload as object });

describe("POST /v1/browser-source/generate", () => {
  test("returns the record in the reference's shape, and the same record again", async () => {
    const first = await generate({ browser_source_type: "alerts", identifier: String(setId) });
    expect(first.statusCode).toBe(201);
    const record = first.json();
    expect(record).toEqual({
      id: expect.any(Number),
      identifier: String(setId),
      browser_source_type: "alerts",
      access_token: expect.stringMatching(/^[0-9a-f-]{36}$/),
      user_id: String(alice.userId),
      created_at: expect.stringMatching(/\.\d{6}Z$/),
      updated_at: expect.stringMatching(/\.\d{6}Z$/),
      browser_source_url: `http://127.0.0.1:8080/browser-source/alerts/${record.access_token}`,
      // Ovation's addition: the source's options with their defaults (docs/overlays.md).
      settings: { tts: expect.objectContaining({ enabled: false }) },
    });
    const again = await generate({ browser_source_type: "alerts", identifier: String(setId) });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(record);
  });

  test("the four types and their identifier rules", async () => {
    expect((await generate({ browser_source_type: "alerts" })).json().identifier).toBeNull();
    expect((await generate({ browser_source_type: "effect-alerts" })).statusCode).toBe(201);
    expect((await generate({ browser_source_type: "effect-alerts", identifier: "1" })).statusCode).toBe(422);
    expect((await generate({ browser_source_type: "scenes" })).json().errors.identifier).toBeDefined();
    expect((await generate({ browser_source_type: "goalbars" })).statusCode).toBe(422);
    expect((await generate({ browser_source_type: "scenes", identifier: "scene-7" })).statusCode).toBe(201);
    expect((await generate({ browser_source_type: "goalbars", identifier: "42" })).statusCode).toBe(201);
    expect((await generate({ browser_source_type: "alerts", identifier: "999999" })).json().errors.identifier).toBeDefined();
    expect((await generate({ browser_source_type: "widgets" })).json().errors.browser_source_type).toBeDefined();
  });

  test("the overlay types: chat, events and emotewall with or without a name; their options are checked, owned and defaulted", async () => {
    const chat = (await generate({ browser_source_type: "chat" })).json();
    expect(chat.settings).toMatchObject({ theme: "dark", max_lines: 50, hide_bot: true });
    expect((await generate({ browser_source_type: "chat", identifier: "game" })).json().id).not.toBe(chat.id);
    expect((await generate({ browser_source_type: "events" })).statusCode).toBe(201);
    expect((await generate({ browser_source_type: "emotewall" })).statusCode).toBe(201);
    const put = (id: number, settings: unknown, token = alice.token) =>
      app.inject({ method: "PUT", url: `/v1/browser-source/${id}/settings`, headers: bearer(token), payload: { settings } as object });
    const bad = await put(chat.id, { fade_after_seconds: -1, unknown_option: true });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(["settings", "settings.fade_after_seconds"]);
    const saved = await put(chat.id, { fade_after_seconds: 30 });
    expect(saved.json().settings).toMatchObject({ fade_after_seconds: 30, theme: "dark" });
    const bob = seedUser(app, "Bob");
    expect((await put(chat.id, {}, bob.token)).statusCode).toBe(404);
    const bobScene = (await generate({ browser_source_type: "scenes", identifier: "s" }, bob.token)).json();
    const stolen = await put(bobScene.id, { parts: [{ browser_source_id: chat.id, x: 0, y: 0, width: 50, height: 50 }] }, bob.token);
    expect(Object.keys(stolen.json().errors)).toEqual(["settings.parts.0.browser_source_id"]);
  });

  test("a numeric identifier must be sent as a string", async () => {
    const res = await generate({ browser_source_type: "goalbars", identifier: 42 });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.identifier[0]).toMatch(/string/);
  });
});

describe("the page and its config", () => {
  test("the page embeds the bootstrap; the config has the room and the alert set", async () => {
    const record = (await generate({ browser_source_type: "alerts" })).json();
    const page = await app.inject({ method: "GET", url: `/browser-source/alerts/${record.access_token}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    expect(page.body).toContain('id="ovation-bootstrap"');
    expect(page.body).toContain(record.access_token);
    const config = await app.inject({ method: "GET", url: `/browser-source/api/${record.access_token}/config` });
    expect(config.statusCode).toBe(200);
    expect(config.json()).toMatchObject({ room: `${alice.uuid}.ovation.${alice.userId}`, browser_source: record, alert_set: { id: setId, version: 4 } });
  });

  test("the page's assets are served under /browser-source/assets/ and referenced by the page", async () => {
    const record = (await generate({ browser_source_type: "alerts" })).json();
    const page = await app.inject({ method: "GET", url: `/browser-source/alerts/${record.access_token}` });
    const script = /src="http:\/\/127\.0\.0\.1:8080(\/browser-source\/assets\/[^"]+\.js)"/.exec(page.body);
    expect(script).not.toBeNull();
    const asset = await app.inject({ method: "GET", url: script![1]! });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["content-type"]).toMatch(/javascript/);
    expect(asset.headers["access-control-allow-origin"]).toBe("*");
    expect((await app.inject({ method: "GET", url: "/browser-source/assets/../../package.json" })).statusCode).toBe(404);
  });

  test("a bad token, or the wrong type, gets a plain error page without data", async () => {
    const record = (await generate({ browser_source_type: "alerts" })).json();
    for (const url of [`/browser-source/alerts/00000000-0000-0000-0000-000000000000`, `/browser-source/alerts/${"x".repeat(90)}`, `/browser-source/scenes/${record.access_token}`, `/browser-source/nope/${record.access_token}`]) {
      const res = await app.inject({ method: "GET", url });
      expect(res.statusCode).toBe(404);
      expect(res.headers["content-type"]).toMatch(/text\/html/);
      expect(res.body).not.toContain(record.access_token);
      expect(res.body).not.toContain("ovation-bootstrap");
    }
    expect((await app.inject({ method: "GET", url: `/browser-source/alerts/${"x".repeat(5000)}` })).statusCode).toBe(414);
    const config = await app.inject({ method: "GET", url: `/browser-source/api/00000000-0000-0000-0000-000000000000/config` });
    expect(config.statusCode).toBe(404);
    expect(config.json().code).toBe("OVATION_ERR_BROWSER_SOURCES_INVALID_TOKEN");
  });

  test("regenerate revokes the old address", async () => {
    const record = (await generate({ browser_source_type: "scenes", identifier: "s1" })).json();
    const res = await app.inject({ method: "POST", url: `/v1/browser-source/${record.id}/regenerate`, headers: bearer(alice.token) });
    expect(res.statusCode).toBe(200);
    const fresh = res.json();
    expect(fresh.id).toBe(record.id);
    expect(fresh.access_token).not.toBe(record.access_token);
    expect((await app.inject({ method: "GET", url: `/browser-source/scenes/${record.access_token}` })).statusCode).toBe(404);
    expect((await app.inject({ method: "GET", url: `/browser-source/scenes/${fresh.access_token}` })).statusCode).toBe(200);
    expect((await generate({ browser_source_type: "scenes", identifier: "s1" })).json().access_token).toBe(fresh.access_token);
    const other = seedUser(app, "Mallory");
    expect((await app.inject({ method: "POST", url: `/v1/browser-source/${record.id}/regenerate`, headers: bearer(other.token) })).statusCode).toBe(404);
  });
});

describe("OVATION_BROWSER_SOURCE_URL", () => {
  test("pages are served at the path of the configured browser-source address, the API beside them", async () => {
    for (const [sourceUrl, pagePath] of [
      ["http://127.0.0.1:8080/overlay/", "/overlay"],
      ["http://overlay.127.0.0.1.example:8080", ""],
    ] as const) {
      const dir = tempDataDir();
      const other = await testApp(dir.dir, { OVATION_BROWSER_SOURCE_URL: sourceUrl });
      try {
        const owner = seedUser(other, "Owner");
        const record = (await other.inject({ method: "POST", url: "/v1/browser-source/generate", headers: bearer(owner.token), payload: { browser_source_type: "effect-alerts" } })).json();
        expect(record.browser_source_url).toBe(`${sourceUrl.replace(/\/$/, "")}/effect-alerts/${record.access_token}`);
        const page = await other.inject({ method: "GET", url: `${pagePath}/effect-alerts/${record.access_token}` });
        expect(page.statusCode).toBe(200);
        expect(page.body).toContain('id="ovation-bootstrap"');
        expect((await other.inject({ method: "GET", url: `${pagePath}/effect-alerts/00000000-0000-0000-0000-000000000000` })).statusCode).toBe(404);
        expect((await other.inject({ method: "GET", url: "/v1/users", headers: bearer(owner.token) })).statusCode).toBe(200);
      } finally {
        await other.close();
        dir.remove();
      }
    }
  });
});
