import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { channelHttp, createOvationClient, OvationAuthError, ttsApi } from "@ovation/client";
import type { OvationApp } from "../app.js";
import { bearer, tempDataDir } from "./helpers.js";
import type { SeededUser } from "./helpers.js";
import { startManagedChannel } from "./managed-channel.js";

// Every scope a dashboard token holds for these routes: what a manager's token may carry.
const FULL = ["alerts:manage", "widgets:manage", "chatbot:read", "chatbot:manage", "chatbot:manage:commands", "chatbot:manage:moderation", "user:read", "user:manage"];

const data = tempDataDir();
let app: OvationApp;
let base: string;
let streamer: SeededUser;
let editor: SeededUser;
let moderator: SeededUser;
let stranger: SeededUser;

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function call(method: string, path: string, token: string | null, body?: unknown): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(token === null ? {} : bearer(token)), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

const auditRows = async (): Promise<string[]> =>
  ((await call("GET", "/v1/managers/audit?limit=500", streamer.token)).body["data"] as Array<Record<string, unknown>>).map(
    (e) => `${String(e["actor_name"])} ${String(e["role"])} ${String(e["action"])} ${String(e["status"])}`,
  );

/**
 * Holds a donation's read-aloud message for approval on the streamer's alerts source, the way the
 * source's page does (its speech request answers 202 `held`); resolves to the notification id.
 */
async function holdSpeech(sourceToken: string, name: string): Promise<string> {
  const alert = await call("POST", "/v1/alerts", streamer.token, { template: "donation", data: { name, amount: 5, currency: "USD", message: `Hello from ${name}` } });
  expect(alert.status, JSON.stringify(alert.body)).toBe(201);
  const id = (alert.body["notification"] as { id: string }).id;
  const res = await fetch(`${base}/browser-source/api/${sourceToken}/speech/${id}`);
  expect(res.status).toBe(202);
  expect(res.headers.get("x-ovation-speech")).toBe("held");
  return id;
}

beforeAll(async () => {
  ({ app, base, streamer, editor, moderator, stranger } = await startManagedChannel(data.dir, FULL, { managed: true }));
});

afterAll(async () => {
  await app.close();
  data.remove();
});

describe("overlays and read-aloud on a managed channel (real HTTP on loopback)", () => {
  let sourceToken: string;
  let chatId: number;

  beforeAll(async () => {
    const alerts = await call("POST", "/v1/browser-source/generate", streamer.token, { browser_source_type: "alerts" });
    expect(alerts.status).toBe(201);
    sourceToken = alerts.body["access_token"] as string;
    const saved = await call("PUT", `/v1/browser-source/${String(alerts.body["id"])}/settings`, streamer.token, { settings: { tts: { enabled: true, approval: true } } });
    expect(saved.status).toBe(200);
  });

  test("an editor adds and configures the streamer's chat box and event list: saved on the streamer's sources, no address shown", async () => {
    const chat = await call("POST", `/v1/bots/${streamer.userId}/browser-source/generate`, editor.token, { browser_source_type: "chat" });
    expect(chat.status).toBe(201);
    expect(chat.body).toMatchObject({ browser_source_type: "chat", access_token: null, browser_source_url: null, user_id: String(streamer.userId) });
    chatId = chat.body["id"] as number;
    const saved = await call("PUT", `/v1/bots/${streamer.userId}/browser-source/${chatId}/settings`, editor.token, { settings: { font_size: 28, hide_commands: true } });
    expect(saved.status).toBe(200);
    expect(saved.body["settings"]).toMatchObject({ font_size: 28, hide_commands: true });
    expect(app.ovation.repos.browserSources.getForUser(streamer.userId, chatId)?.settings).toMatchObject({ font_size: 28, hide_commands: true });

    const events = await call("POST", `/v1/bots/${streamer.userId}/browser-source/generate`, editor.token, { browser_source_type: "events" });
    const eventsSaved = await call("PUT", `/v1/bots/${streamer.userId}/browser-source/${String(events.body["id"])}/settings`, editor.token, { settings: { limit: 5 } });
    expect(eventsSaved.status).toBe(200);
    expect(app.ovation.repos.browserSources.listForUser(editor.userId)).toEqual([]);

    // A bad option is the usual 422 naming it, and the saved options stay.
    const bad = await call("PUT", `/v1/bots/${streamer.userId}/browser-source/${chatId}/settings`, editor.token, { settings: { font_size: 2 } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body["errors"] as object)).toEqual(["settings.font_size"]);
    expect(app.ovation.repos.browserSources.getForUser(streamer.userId, chatId)?.settings).toMatchObject({ font_size: 28 });
  });

  test("an editor reads the streamer's read-aloud queue, approves and skips held messages and skips the speech; the editor's own queue stays apart", async () => {
    const first = await holdSpeech(sourceToken, "Dana");
    const second = await holdSpeech(sourceToken, "Dario");
    const queue = await call("GET", `/v1/bots/${streamer.userId}/tts/queue`, editor.token);
    expect(queue.status).toBe(200);
    expect((queue.body["data"] as Array<{ notification_id: string; text: string }>).map((h) => h.notification_id)).toEqual([first, second]);
    expect((await call("GET", "/v1/tts/queue", editor.token)).body["data"]).toEqual([]);

    const approved = await call("POST", `/v1/bots/${streamer.userId}/tts/queue/${first}/approve`, editor.token);
    expect(approved).toMatchObject({ status: 200, body: { notification_id: first, action: "approve" } });
    expect(app.ovation.speech.isApproved(streamer.userId, first)).toBe(true);
    const skipped = await call("POST", `/v1/bots/${streamer.userId}/tts/queue/${second}/skip`, editor.token);
    expect(skipped.status).toBe(200);
    expect(app.ovation.speech.held(streamer.userId)).toEqual([]);
    // Nothing is held under that id any more: the streamer's 404, not another channel's.
    expect((await call("POST", `/v1/bots/${streamer.userId}/tts/queue/${second}/skip`, editor.token)).body).toMatchObject({ code: "OVATION_ERR_TTS_NOT_HELD" });
    expect((await call("POST", `/v1/bots/${streamer.userId}/tts/skip`, editor.token)).status).toBe(200);

    // The client SDK: the read-aloud family built on channelHttp acts on the streamer's queue.
    const third = await holdSpeech(sourceToken, "Dora");
    const helper = createOvationClient({ baseUrl: base, token: editor.token });
    const onChannel = ttsApi(channelHttp(helper.http, streamer.userId));
    expect((await onChannel.queue()).data.map((h) => h.notification_id)).toEqual([third]);
    await onChannel.skipHeld(third);
    expect(app.ovation.speech.held(streamer.userId)).toEqual([]);
  });

  test("a moderator's role does not cover overlays or read-aloud; a stranger holds no role; the owner's own paths answer as before", async () => {
    const held = await holdSpeech(sourceToken, "Mia");
    const routes: Array<[string, string, unknown]> = [
      ["POST", "browser-source/generate", { browser_source_type: "events", identifier: "moderators" }],
      ["PUT", `browser-source/${chatId}/settings`, { settings: { font_size: 12 } }],
      ["GET", "tts/queue", undefined],
      ["GET", "tts/voices", undefined],
      ["POST", "tts/preview", { text: "hello" }],
      ["POST", `tts/queue/${held}/approve`, undefined],
      ["POST", `tts/queue/${held}/skip`, undefined],
      ["POST", "tts/skip", undefined],
    ];
    for (const [method, route, body] of routes) {
      const refused = await call(method, `/v1/bots/${streamer.userId}/${route}`, moderator.token, body);
      expect(refused.status, `${method} ${route}`).toBe(403);
      expect(refused.body, `${method} ${route}`).toMatchObject({ code: "OVATION_ERR_AUTH_ROLE_FORBIDS", role: "moderator", missing_scopes: ["alerts:manage"] });
      expect((await call(method, `/v1/bots/${streamer.userId}/${route}`, stranger.token, body)).body, `${method} ${route}`).toMatchObject({ code: "OVATION_ERR_AUTH_NOT_YOUR_USER" });
    }
    expect(app.ovation.speech.held(streamer.userId).map((h) => h.notification_id)).toEqual([held]);
    expect(app.ovation.repos.browserSources.getForUser(streamer.userId, chatId)?.settings).toMatchObject({ font_size: 28 });
    const mona = createOvationClient({ baseUrl: base, token: moderator.token });
    await expect(ttsApi(channelHttp(mona.http, streamer.userId)).queue()).rejects.toBeInstanceOf(OvationAuthError);

    // The owner: the caller's paths and the channel form with @me reach the same queue.
    expect(((await call("GET", "/v1/tts/queue", streamer.token)).body["data"] as unknown[]).length).toBe(1);
    expect(((await call("GET", "/v1/bots/@me/tts/queue", streamer.token)).body["data"] as unknown[]).length).toBe(1);
    expect((await call("POST", `/v1/tts/queue/${held}/skip`, streamer.token)).status).toBe(200);
  });

  test("the streamer's audit log names the editor's overlay and read-aloud writes and the moderator's refusals; reads and previews are not recorded", async () => {
    const rows = await auditRows();
    for (const row of [
      "Eddie editor POST /v1/bots/{user}/browser-source/generate 201",
      "Eddie editor PUT /v1/bots/{user}/browser-source/{id}/settings 200",
      "Eddie editor PUT /v1/bots/{user}/browser-source/{id}/settings 422",
      "Eddie editor POST /v1/bots/{user}/tts/queue/{notification_id}/approve 200",
      "Eddie editor POST /v1/bots/{user}/tts/queue/{notification_id}/skip 200",
      "Eddie editor POST /v1/bots/{user}/tts/queue/{notification_id}/skip 404",
      "Eddie editor POST /v1/bots/{user}/tts/skip 200",
      "Mona moderator PUT /v1/bots/{user}/browser-source/{id}/settings 403",
      "Mona moderator POST /v1/bots/{user}/tts/queue/{notification_id}/approve 403",
      "Mona moderator POST /v1/bots/{user}/tts/skip 403",
    ]) {
      expect(rows, row).toContain(row);
    }
    expect(rows.some((row) => row.includes(" GET ") || row.includes("/tts/preview"))).toBe(false);
    expect(rows.some((row) => row.startsWith("Stranger") || row.startsWith("Streamer "))).toBe(false);
  });
});
