import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { alertSetsApi, browserSourcesApi, channelHttp, createOvationClient, goalBarsApi, OvationAuthError } from "@ovation/client";
import { buildDefaultAlertSet } from "@ovation/core";
import type { OvationApp } from "../app.js";
import { bearer, tempDataDir } from "./helpers.js";
import type { SeededUser } from "./helpers.js";
import { startManagedChannel } from "./managed-channel.js";
import { loggedNotification } from "../store/logged-alert.js";

// Every scope a dashboard token holds for these routes: what a manager's token may carry.
const FULL = ["alerts:manage", "widgets:manage", "chatbot:read", "chatbot:manage", "chatbot:manage:commands", "chatbot:manage:timers", "chatbot:manage:giveaways", "chatbot:manage:moderation", "user:read", "user:manage"];
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]);

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

async function call(method: string, path: string, token: string, body?: unknown): Promise<Answer> {
  const bytes = body instanceof Uint8Array;
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...bearer(token), ...(body === undefined ? {} : { "content-type": bytes ? "image/png" : "application/json" }) },
    ...(body === undefined ? {} : { body: bytes ? body : JSON.stringify(body) }),
  });
  return { status: res.status, body: res.status === 204 ? {} : ((await res.json()) as Record<string, unknown>) };
}

const ae4Body = () => {
  const { id: _id, user_id: _u, active: _a, ...rest } = buildDefaultAlertSet({ id: 1, user_id: 1 });
  return rest;
};

beforeAll(async () => {
  ({ app, base, streamer, editor, moderator, stranger } = await startManagedChannel(data.dir, FULL, { managed: true }));
});

afterAll(async () => {
  await app.close();
  data.remove();
});

/** Every newly reachable write or read, as `[method, path under /v1/bots/{user}, body]`, made fresh for each caller. */
function editorRoutes(ids: { set: number; goal: number; source: number; notification: string }): Array<[string, string, unknown]> {
  return [
    ["GET", "alert-configs", undefined],
    ["POST", "alert-configs", { name: "Made by a manager", ...ae4Body() }],
    ["GET", `alert-configs/${ids.set}`, undefined],
    ["PUT", `alert-configs/${ids.set}`, { name: "Renamed by a manager", ...ae4Body() }],
    ["POST", `alert-configs/${ids.set}/activate`, undefined],
    ["POST", "alerts", { template: "follow", data: { name: "Zoe" }, platform: "twitch" }],
    ["POST", "alerts/test", { template: "follow" }],
    ["GET", "alerts/log", undefined],
    ["POST", "alerts/queue/pause", undefined],
    ["POST", "alerts/queue/resume", undefined],
    ["POST", "alerts/queue/replay", { notification_id: ids.notification }],
    ["GET", "browser-source", undefined],
    ["POST", "browser-source/generate", { browser_source_type: "chat", identifier: "managed" }],
    ["PUT", `browser-source/${ids.source}/settings`, { settings: {} }],
    ["GET", "goal-bars", undefined],
    ["POST", "goal-bars", { title: "Managed goal", kind: "subscribers", target: 5 }],
    ["GET", `goal-bars/${ids.goal}`, undefined],
    ["PUT", `goal-bars/${ids.goal}`, { title: "Road to 20", kind: "followers", target: 20 }],
    ["POST", `goal-bars/${ids.goal}/progress`, { operation: "increment", value: 1 }],
    ["GET", "media", undefined],
    ["POST", "media", PNG],
    ["POST", "simulate", { type: "follow", platform: "twitch", name: "Sim" }],
  ];
}

describe("alerts, alert sets, browser sources, goal bars, media and the simulator on a managed channel (real HTTP on loopback)", () => {
  let ids: { set: number; goal: number; source: number; notification: string };

  beforeAll(async () => {
    const set = await call("POST", "/v1/alert-configs", streamer.token, { name: "Main", ...ae4Body(), active: true });
    const goal = await call("POST", "/v1/goal-bars", streamer.token, { title: "Road to 10", kind: "followers", target: 10 });
    const source = await call("POST", "/v1/browser-source/generate", streamer.token, { browser_source_type: "alerts" });
    const alert = await call("POST", "/v1/alerts", streamer.token, { template: "follow", data: { name: "First" }, platform: "twitch" });
    expect([set.status, goal.status, source.status, alert.status]).toEqual([201, 201, 201, 201]);
    ids = { set: set.body["id"] as number, goal: goal.body["id"] as number, source: source.body["id"] as number, notification: (alert.body["notification"] as { id: string }).id };
  });

  test("an editor reaches every one of them on the streamer's channel, and what it does lands on the streamer's account", async () => {
    for (const [method, route, body] of editorRoutes(ids)) {
      const res = await call(method, `/v1/bots/${streamer.userId}/${route}`, editor.token, body);
      expect(res.status, `${method} ${route}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    }
    const { repos } = app.ovation;
    expect(repos.alertSets.listForUser(streamer.userId).map((s) => s.name)).toEqual(expect.arrayContaining(["Renamed by a manager", "Made by a manager"]));
    expect(repos.alertSets.listForUser(editor.userId).map((s) => s.name)).not.toContain("Made by a manager");
    expect(repos.goalBars.listForUser(streamer.userId).map((g) => g.title)).toEqual(["Road to 20", "Managed goal"]);
    expect(repos.goalBars.listForUser(editor.userId)).toEqual([]);
    expect(repos.browserSources.listForUser(streamer.userId).map((s) => s.identifier)).toContain("managed");
    expect(repos.browserSources.listForUser(editor.userId)).toEqual([]);
    const log = repos.alertLog.recent(streamer.userId, 50).map((entry) => (loggedNotification(entry).event as Record<string, unknown>)["name"]);
    expect(log).toEqual(expect.arrayContaining(["Zoe", "Sim", "First"]));
    expect(repos.alertLog.recent(editor.userId, 50)).toEqual([]);
    const media = await call("GET", `/v1/bots/${streamer.userId}/media`, editor.token);
    expect((media.body["data"] as Array<{ url: string }>)[0]?.url).toContain(`/media/${streamer.userId}/`);
    expect((await call("GET", "/v1/media", editor.token)).body["data"]).toEqual([]);
  });

  test("a moderator's role does not cover them: each is refused with its role and the missing scope", async () => {
    for (const [method, route, body] of editorRoutes(ids)) {
      const res = await call(method, `/v1/bots/${streamer.userId}/${route}`, moderator.token, body);
      expect(res.status, `${method} ${route}`).toBe(403);
      expect(res.body, `${method} ${route}`).toMatchObject({ code: "OVATION_ERR_AUTH_ROLE_FORBIDS", role: "moderator" });
      expect(res.body["missing_scopes"], `${method} ${route}`).toEqual([route.startsWith("goal-bars") ? "widgets:manage" : "alerts:manage"]);
    }
    expect(app.ovation.repos.goalBars.listForUser(streamer.userId)).toHaveLength(2);
  });

  test("an account with no role on the channel is refused on every one, and nothing changes", async () => {
    const sets = app.ovation.repos.alertSets.listForUser(streamer.userId).length;
    for (const [method, route, body] of [...editorRoutes(ids), ["DELETE", `goal-bars/${ids.goal}`, undefined] as [string, string, unknown]]) {
      const res = await call(method, `/v1/bots/${streamer.userId}/${route}`, stranger.token, body);
      expect(res.status, `${method} ${route}`).toBe(403);
      expect(res.body, `${method} ${route}`).toMatchObject({ code: "OVATION_ERR_AUTH_NOT_YOUR_USER" });
    }
    expect(app.ovation.repos.alertSets.listForUser(streamer.userId)).toHaveLength(sets);
    expect(app.ovation.repos.goalBars.listForUser(streamer.userId)).toHaveLength(2);
  });

  test("a browser source's token and address stay the owner's: withheld from an editor, and only the owner renews them", async () => {
    const listed = await call("GET", `/v1/bots/${streamer.userId}/browser-source`, editor.token);
    const sources = listed.body["data"] as Array<Record<string, unknown>>;
    expect(sources.length).toBeGreaterThan(1);
    for (const source of sources) expect(source).toMatchObject({ access_token: null, browser_source_url: null, user_id: String(streamer.userId) });
    const generated = await call("POST", `/v1/bots/${streamer.userId}/browser-source/generate`, editor.token, { browser_source_type: "alerts" });
    expect(generated.status).toBe(200);
    expect(generated.body).toMatchObject({ id: ids.source, access_token: null, browser_source_url: null });
    const token = app.ovation.repos.browserSources.getForUser(streamer.userId, ids.source)?.access_token;
    expect(JSON.stringify(listed.body)).not.toContain(String(token));

    const renewed = await call("POST", `/v1/bots/${streamer.userId}/browser-source/${ids.source}/regenerate`, editor.token);
    expect(renewed.status).toBe(403);
    expect(renewed.body).toMatchObject({ code: "OVATION_ERR_AUTH_OWNER_ONLY" });
    expect(app.ovation.repos.browserSources.getForUser(streamer.userId, ids.source)?.access_token).toBe(token);

    // The owner sees them on both forms, and the reference path answers as it always did.
    const own = await call("GET", "/v1/bots/@me/browser-source", streamer.token);
    expect((own.body["data"] as Array<Record<string, unknown>>).find((s) => s["id"] === ids.source)).toMatchObject({ access_token: token, browser_source_url: expect.stringContaining(String(token)) });
    const reference = await call("GET", "/v1/browser-source", streamer.token);
    expect((reference.body["data"] as Array<Record<string, unknown>>).find((s) => s["id"] === ids.source)?.["access_token"]).toBe(token);
    const ownRenewal = await call("POST", `/v1/bots/${streamer.userId}/browser-source/${ids.source}/regenerate`, streamer.token);
    expect(ownRenewal.status).toBe(200);
    expect(ownRenewal.body["access_token"]).not.toBe(token);
  });

  test("the editor's deletes act on the streamer's records, and an unknown id is the streamer's 404", async () => {
    const madeSet = app.ovation.repos.alertSets.listForUser(streamer.userId).find((s) => s.name === "Made by a manager");
    expect((await call("DELETE", `/v1/bots/${streamer.userId}/alert-configs/${String(madeSet?.id)}`, editor.token)).status).toBe(204);
    const goal = app.ovation.repos.goalBars.listForUser(streamer.userId).find((g) => g.title === "Managed goal");
    expect((await call("DELETE", `/v1/bots/${streamer.userId}/goal-bars/${String(goal?.id)}`, editor.token)).status).toBe(204);
    const file = ((await call("GET", `/v1/bots/${streamer.userId}/media`, editor.token)).body["data"] as Array<{ url: string }>)[0]?.url.split("/").pop();
    expect((await call("DELETE", `/v1/bots/${streamer.userId}/media/${String(file)}`, editor.token)).status).toBe(204);
    expect(await (await call("GET", `/v1/bots/${streamer.userId}/goal-bars/999`, editor.token)).body).toMatchObject({ code: "OVATION_ERR_GOAL_BARS_NOT_FOUND" });
    // The editor's own goal bar of the same id is not the streamer's.
    const mine = await call("POST", "/v1/goal-bars", editor.token, { title: "Eddie's own", kind: "bits", target: 100 });
    expect((await call("GET", `/v1/bots/${streamer.userId}/goal-bars/${String(mine.body["id"])}`, editor.token)).status).toBe(404);
  });

  test("the streamer's audit log names each write the editor made and each refusal, test alerts included", async () => {
    const log = ((await call("GET", "/v1/managers/audit?limit=500", streamer.token)).body["data"] as Array<Record<string, unknown>>).map(
      (e) => `${String(e["actor_name"])} ${String(e["role"])} ${String(e["action"])} ${String(e["status"])}`,
    );
    for (const row of [
      "Eddie editor POST /v1/bots/{user}/alert-configs 201",
      "Eddie editor PUT /v1/bots/{user}/alert-configs/{id} 200",
      "Eddie editor DELETE /v1/bots/{user}/alert-configs/{id} 204",
      "Eddie editor POST /v1/bots/{user}/alerts 201",
      "Eddie editor POST /v1/bots/{user}/alerts/test 201",
      "Eddie editor POST /v1/bots/{user}/alerts/queue/pause 200",
      "Eddie editor POST /v1/bots/{user}/browser-source/generate 201",
      "Eddie editor POST /v1/bots/{user}/browser-source/{id}/regenerate 403",
      "Eddie editor PUT /v1/bots/{user}/browser-source/{id}/settings 200",
      "Eddie editor POST /v1/bots/{user}/goal-bars/{id}/progress 200",
      "Eddie editor POST /v1/bots/{user}/media 201",
      "Eddie editor DELETE /v1/bots/{user}/media/{file} 204",
      "Eddie editor POST /v1/bots/{user}/simulate 201",
      "Mona moderator POST /v1/bots/{user}/goal-bars 403",
      "Mona moderator POST /v1/bots/{user}/simulate 403",
    ]) {
      expect(log, row).toContain(row);
    }
    expect(log.some((row) => row.includes(" GET "))).toBe(false);
    // A stranger holds no role: its refusals are not the channel's business (nothing to attribute a role to).
    expect(log.some((row) => row.startsWith("Stranger"))).toBe(false);
  });

  test("the client SDK: families built on channelHttp act on the managed channel; a moderator's call is a typed refusal", async () => {
    const helper = createOvationClient({ baseUrl: base, token: editor.token });
    const onChannel = channelHttp(helper.http, streamer.userId);
    expect((await goalBarsApi(onChannel).list()).data.map((g) => g.goal_bar.title)).toEqual(["Road to 20"]);
    expect((await alertSetsApi(onChannel).list()).data.map((s) => s.name)).toContain("Renamed by a manager");
    expect((await browserSourcesApi(onChannel).list()).data.every((s) => s.access_token === null)).toBe(true);
    expect((await helper.goalBars.list()).data.map((g) => g.goal_bar.title)).toEqual(["Eddie's own"]);
    const mona = createOvationClient({ baseUrl: base, token: moderator.token });
    await expect(goalBarsApi(channelHttp(mona.http, streamer.userId)).list()).rejects.toBeInstanceOf(OvationAuthError);
  });
});

describe("system commands on a managed channel (real HTTP on loopback)", () => {
  test("the streamer reads and changes the bot's settings; a switched-off command is marked, a replaced one names its command", async () => {
    const own = await call("GET", "/v1/bots/@me/system-commands", streamer.token);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ settings: { language: "en", visuals: true, effects: true, sounds: true, disabled_commands: [] }, languages: ["en", "de"] });
    expect((own.body["commands"] as Array<{ name: string; level: string }>).map((c) => `${c.name}:${c.level}`)).toEqual(["help:everyone", "language:moderator", "visuals:moderator", "effects:moderator", "sounds:moderator"]);

    const command = await call("POST", "/v1/bots/@me/commands", streamer.token, { command: "!help", response: "Ask a mod" });
    const changed = await call("PUT", "/v1/bots/@me/system-commands", streamer.token, { language: "de", sounds: false, disabled_commands: ["visuals"] });
    expect(changed.status).toBe(200);
    expect(changed.body["settings"]).toEqual({
      language: "de",
      visuals: true,
      effects: true,
      sounds: false,
      disabled_commands: ["visuals"],
      levels: { help: "everyone", language: "moderator", visuals: "moderator", effects: "moderator", sounds: "moderator" },
    });
    const commands = changed.body["commands"] as Array<{ name: string; enabled: boolean; replaced_by: number | null }>;
    expect(commands.find((c) => c.name === "visuals")).toMatchObject({ enabled: false, replaced_by: null });
    expect(commands.find((c) => c.name === "help")).toMatchObject({ enabled: true, replaced_by: command.body["id"] });
    expect(app.ovation.botModules.system.settings(String(streamer.userId))).toMatchObject({ language: "de", sounds: false, disabled_commands: ["visuals"] });
  });

  test("bad settings are a 422 naming the field, and change nothing", async () => {
    const bad = await call("PUT", "/v1/bots/@me/system-commands", streamer.token, { language: "fr", disabled_commands: ["dance"] });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body["errors"] as object).sort()).toEqual(["disabled_commands.0", "language"]);
    const badLevels = await call("PUT", "/v1/bots/@me/system-commands", streamer.token, { levels: { help: "admin", dance: "everyone" } });
    expect(badLevels.status).toBe(422);
    expect(Object.keys(badLevels.body["errors"] as object).sort()).toEqual(["levels.dance", "levels.help"]);
    expect((badLevels.body["errors"] as Record<string, string[]>)["levels.help"]?.[0]).toContain("everyone, subscriber, vip, moderator, broadcaster");
    expect(app.ovation.botModules.system.settings(String(streamer.userId))).toMatchObject({ language: "de", levels: { help: "everyone" } });
  });

  test("who may use each command: a level changed is answered in the view and kept; a command left out keeps its default", async () => {
    const changed = await call("PUT", "/v1/bots/@me/system-commands", streamer.token, { language: "de", sounds: false, disabled_commands: ["visuals"], levels: { help: "subscriber", sounds: "broadcaster" } });
    expect(changed.status).toBe(200);
    const commands = changed.body["commands"] as Array<{ name: string; level: string }>;
    expect(commands.map((c) => `${c.name}:${c.level}`)).toEqual(["help:subscriber", "language:moderator", "visuals:moderator", "effects:moderator", "sounds:broadcaster"]);
    expect(app.ovation.botModules.system.settings(String(streamer.userId)).levels).toEqual({ help: "subscriber", language: "moderator", visuals: "moderator", effects: "moderator", sounds: "broadcaster" });
    const back = await call("PUT", "/v1/bots/@me/system-commands", streamer.token, { language: "de", sounds: false, disabled_commands: ["visuals"] });
    expect((back.body["commands"] as Array<{ name: string; level: string }>)[0]).toMatchObject({ name: "help", level: "everyone" });
  });

  test("a moderator reads and changes them on the streamer's channel; an editor and a stranger are refused", async () => {
    const path = `/v1/bots/${streamer.userId}/system-commands`;
    expect((await call("GET", path, moderator.token)).status).toBe(200);
    const put = await call("PUT", path, moderator.token, { language: "en", sounds: true });
    expect(put.status).toBe(200);
    expect(app.ovation.botModules.system.settings(String(streamer.userId))).toMatchObject({ language: "en", sounds: true, disabled_commands: [] });
    expect(app.ovation.botModules.system.settings(String(moderator.userId)).language).toBe("en");

    for (const [method, body] of [["GET", undefined], ["PUT", { language: "de" }]] as const) {
      const refused = await call(method, path, editor.token, body);
      expect(refused.status, method).toBe(403);
      expect(refused.body).toMatchObject({ code: "OVATION_ERR_AUTH_ROLE_FORBIDS", role: "editor" });
      expect((await call(method, path, stranger.token, body)).body).toMatchObject({ code: "OVATION_ERR_AUTH_NOT_YOUR_USER" });
    }
    const log = ((await call("GET", "/v1/managers/audit", streamer.token)).body["data"] as Array<Record<string, unknown>>).map((e) => `${String(e["actor_name"])} ${String(e["action"])} ${String(e["status"])}`);
    expect(log).toContain("Mona PUT /v1/bots/{user}/system-commands 200");
    expect(log).toContain("Eddie PUT /v1/bots/{user}/system-commands 403");
    expect(app.ovation.botModules.system.settings(String(streamer.userId)).language).toBe("en");
  });

  test("the client SDK's systemCommands family", async () => {
    const mona = createOvationClient({ baseUrl: base, token: moderator.token });
    const view = await mona.systemCommands.replace({ language: "de" }, { user: streamer.userId });
    expect(view.settings.language).toBe("de");
    expect((await mona.systemCommands.get({ user: streamer.userId })).settings.language).toBe("de");
  });
});
