import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { OvationAuthError, createOvationClient } from "@ovation/client";
import type { OvationApp } from "../app.js";
import { readStoredData } from "../store/store.js";
import { bearer, tempDataDir } from "./helpers.js";
import type { SeededUser } from "./helpers.js";
import { startManagedChannel } from "./managed-channel.js";

// Every scope a token of the dashboard holds for these routes: what a manager's token may carry.
const FULL = ["alerts:manage", "widgets:manage", "chatbot:read", "chatbot:manage", "chatbot:manage:commands", "chatbot:manage:timers", "chatbot:manage:giveaways", "chatbot:manage:moderation", "user:read", "user:manage"];

const data = tempDataDir();
let app: OvationApp;
let base: string;
let streamer: SeededUser;
let editor: SeededUser;
let moderator: SeededUser;
let stranger: SeededUser;

async function call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; json: () => Promise<Record<string, unknown>> }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...bearer(token), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: async () => (res.status === 204 ? {} : ((await res.json()) as Record<string, unknown>)) };
}

beforeAll(async () => {
  ({ app, base, streamer, editor, moderator, stranger } = await startManagedChannel(data.dir, FULL));
});

afterAll(async () => {
  await app.close();
  data.remove();
});

describe("managers (real HTTP on loopback)", () => {
  test("the streamer grants roles by name or id; bad grants are named errors", async () => {
    const byName = await call("POST", "/v1/managers", streamer.token, { user: "eddie", role: "editor" });
    expect(byName.status).toBe(201);
    expect(await byName.json()).toMatchObject({ user_id: editor.userId, name: "Eddie", role: "editor", scopes: expect.arrayContaining(["chatbot:manage:commands"]) });
    expect((await call("POST", "/v1/managers", streamer.token, { user: moderator.userId, role: "moderator" })).status).toBe(201);

    const unknown = await call("POST", "/v1/managers", streamer.token, { user: "nobody", role: "editor" });
    expect(unknown.status).toBe(422);
    expect(await unknown.json()).toMatchObject({ code: "OVATION_ERR_MANAGERS_UNKNOWN_USER", errors: { user: ["names no account"] } });
    expect(await (await call("POST", "/v1/managers", streamer.token, { user: streamer.userId, role: "editor" })).json()).toMatchObject({ code: "OVATION_ERR_MANAGERS_SELF" });
    const badRole = await call("POST", "/v1/managers", streamer.token, { user: "Eddie", role: "owner" });
    expect(badRole.status).toBe(422);
    expect(Object.keys((await badRole.json()).errors as object)).toEqual(["role"]);

    const list = (await (await call("GET", "/v1/managers", streamer.token)).json()).data as Array<{ name: string; role: string }>;
    expect(list.map((m) => [m.name, m.role])).toEqual([
      ["Eddie", "editor"],
      ["Mona", "moderator"],
    ]);
    const channels = (await (await call("GET", "/v1/managed-channels", editor.token)).json()).data;
    expect(channels).toEqual([expect.objectContaining({ user_id: streamer.userId, name: "Streamer", role: "editor" })]);
    expect((await (await call("GET", "/v1/managed-channels", stranger.token)).json()).data).toEqual([]);
  });

  test("an editor manages the streamer's commands and nothing of the bot modules", async () => {
    const path = `/v1/bots/${streamer.userId}/commands`;
    const created = await call("POST", path, editor.token, { command: "!discord", response: "Join us" });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    expect(app.ovation.repos.commands.listForUser(streamer.userId).map((c) => c.command)).toEqual(["discord"]);
    expect(app.ovation.repos.commands.listForUser(editor.userId)).toEqual([]);
    expect((await call("PUT", `${path}/${String(id)}`, editor.token, { command: "discord", response: "New" })).status).toBe(200);
    expect((await call("GET", path, editor.token)).status).toBe(200);

    for (const [method, route, body] of [
      ["GET", "timers", undefined],
      ["POST", "giveaways", { keyword: "!win" }],
      ["PUT", "moderation", {}],
      ["GET", "counters", undefined],
    ] as const) {
      const res = await call(method, `/v1/bots/${streamer.userId}/${route}`, editor.token, body);
      expect(res.status, `${method} ${route}`).toBe(403);
      expect(await res.json()).toMatchObject({ code: "OVATION_ERR_AUTH_ROLE_FORBIDS", role: "editor" });
    }
  });

  test("a moderator runs the bot modules and is refused on commands", async () => {
    const bot = `/v1/bots/${streamer.userId}`;
    const refused = await call("POST", `${bot}/commands`, moderator.token, { command: "!x", response: "y" });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "OVATION_ERR_AUTH_ROLE_FORBIDS", role: "moderator", missing_scopes: ["chatbot:manage:commands"] });

    expect((await call("POST", `${bot}/giveaways`, moderator.token, { keyword: "!win" })).status).toBe(201);
    expect(await (await call("POST", `${bot}/giveaways/close`, moderator.token)).json()).toMatchObject({ status: "closed" });
    expect((await call("POST", `${bot}/timers`, moderator.token, { name: "socials", message: "Follow!", interval_minutes: 5 })).status).toBe(201);
    expect((await call("PUT", `${bot}/moderation`, moderator.token, { links: { enabled: true } })).status).toBe(200);
    expect((await call("GET", `${bot}/counters`, moderator.token)).status).toBe(200);
    expect(app.ovation.repos.timers.listForUser(streamer.userId).map((t) => t.name)).toEqual(["socials"]);
  });

  test("a manager's calls get the scopes its token AND its role share", async () => {
    const narrow = app.ovation.repos.tokens.create({ user_id: editor.userId, name: "narrow", scopes: ["chatbot:read"] }).token;
    const res = await call("GET", `/v1/bots/${streamer.userId}/commands`, narrow);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: "OVATION_ERR_AUTH_MISSING_SCOPE", missing_scopes: ["chatbot:manage:commands"] });
  });

  test("no role reaches the signing secret, the managers list, nor anything of another channel", async () => {
    for (const token of [editor.token, moderator.token]) {
      const secret = await call("GET", `/v1/bots/${streamer.userId}/signing-secret`, token);
      expect(secret.status).toBe(403);
      expect(await secret.json()).toMatchObject({ code: "OVATION_ERR_AUTH_OWNER_ONLY" });
      expect((await call("POST", `/v1/bots/${streamer.userId}/signing-secret/rotate`, token)).status).toBe(403);
    }
    // The streamer-side routes always act on the caller: a manager sees its own (empty) list.
    expect((await (await call("GET", "/v1/managers", editor.token)).json()).data).toEqual([]);
    expect((await (await call("GET", "/v1/managers/audit", editor.token)).json()).data).toEqual([]);
    // A manager may not grant roles on the streamer's channel through any path.
    expect((await call("DELETE", `/v1/managers/${moderator.userId}`, editor.token)).status).toBe(404);
    expect(app.ovation.repos.managers.roleOf(streamer.userId, moderator.userId)).toBe("moderator");
    const other = await call("GET", `/v1/bots/${stranger.userId}/commands`, editor.token);
    expect(await other.json()).toMatchObject({ code: "OVATION_ERR_AUTH_NOT_YOUR_USER" });
    expect((await call("GET", "/v1/bots/01/commands", editor.token)).status).toBe(403);
  });

  test("the audit log names who changed what, refusals included, newest first; only the streamer reads it", async () => {
    const log = (await (await call("GET", "/v1/managers/audit?limit=50", streamer.token)).json()).data as Array<Record<string, unknown>>;
    const rows = log.map((e) => `${String(e.actor_name)} ${String(e.role)} ${String(e.action)} ${String(e.status)}`);
    expect(rows).toContain("Eddie editor POST /v1/bots/{user}/commands 201");
    expect(rows).toContain("Eddie editor PUT /v1/bots/{user}/commands/{id} 200");
    expect(rows).toContain("Eddie editor POST /v1/bots/{user}/giveaways 403");
    expect(rows).toContain("Mona moderator POST /v1/bots/{user}/commands 403");
    expect(rows).toContain("Mona moderator POST /v1/bots/{user}/giveaways 201");
    expect(rows).toContain("Mona moderator POST /v1/bots/{user}/signing-secret/rotate 403");
    expect(rows).toContain("Streamer owner managers.grant 201");
    expect(rows.some((r) => r.startsWith("Eddie editor GET"))).toBe(false);
    expect(log[0]?.action).toBe("POST /v1/bots/{user}/signing-secret/rotate");
    expect(log.find((e) => e.action === "POST /v1/bots/{user}/commands" && e.status === 201)).toMatchObject({ actor_id: editor.userId, target: `/v1/bots/${streamer.userId}/commands`, at: expect.any(String) });
  });

  test("revoking a role takes effect on the next call; grants and the log survive a restart", async () => {
    expect((await call("DELETE", `/v1/managers/${editor.userId}`, streamer.token)).status).toBe(204);
    expect(await (await call("DELETE", `/v1/managers/${editor.userId}`, streamer.token)).json()).toMatchObject({ code: "OVATION_ERR_MANAGERS_NOT_FOUND" });
    expect(await (await call("GET", `/v1/bots/${streamer.userId}/commands`, editor.token)).json()).toMatchObject({ code: "OVATION_ERR_AUTH_NOT_YOUR_USER" });
    expect((await (await call("GET", "/v1/managed-channels", editor.token)).json()).data).toEqual([]);
    const changed = await call("POST", "/v1/managers", streamer.token, { user: "Mona", role: "editor" });
    expect(changed.status).toBe(200);
    expect((await call("GET", `/v1/bots/${streamer.userId}/timers`, moderator.token)).status).toBe(403);
    expect((await call("GET", `/v1/bots/${streamer.userId}/commands`, moderator.token)).status).toBe(200);

    await app.ovation.repos.store.persisted();
    const stored = readStoredData(data.dir);
    expect(stored.extensions[`manager_grants.${streamer.userId}`]).toEqual([expect.objectContaining({ manager_id: moderator.userId, role: "editor" })]);
    const audit = stored.extensions[`manager_audit.${streamer.userId}`] as { entries: Array<{ action: string }> };
    expect(audit.entries.map((e) => e.action)).toEqual(expect.arrayContaining(["managers.revoke", "managers.change_role"]));
  });

  test("the client SDK: grant, list, the manager's channels, a call on the streamer's bot, the audit log, revoke", async () => {
    const owner = createOvationClient({ baseUrl: base, token: streamer.token });
    const helper = createOvationClient({ baseUrl: base, token: stranger.token });
    expect(await owner.managers.grant({ user: "Stranger", role: "moderator" })).toMatchObject({ user_id: stranger.userId, role: "moderator" });
    expect((await owner.managers.list()).data.map((m) => m.name)).toContain("Stranger");
    const [channel] = (await helper.managers.channels()).data;
    expect(channel).toMatchObject({ user_id: streamer.userId, role: "moderator" });
    const timers = await helper.timers.list({ user: channel?.user_id ?? 0 });
    expect(timers.data.map((t) => t.name)).toEqual(["socials"]);
    await expect(helper.commands.list({ user: streamer.userId })).rejects.toBeInstanceOf(OvationAuthError);
    await owner.managers.revoke(stranger.userId);
    expect((await owner.managers.audit({ limit: 1 })).data).toEqual([expect.objectContaining({ action: "managers.revoke", actor_id: streamer.userId })]);
    expect((await helper.managers.channels()).data).toEqual([]);
  });
});
