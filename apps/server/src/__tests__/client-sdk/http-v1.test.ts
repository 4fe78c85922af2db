import { describe, expect, it } from "vitest";
import {
  OvationAuthError,
  OvationConflictError,
  OvationHttpError,
  OvationNotFoundError,
  OvationValidationError,
  allRoutes,
} from "@ovation/client";
import { useClientFixture } from "./fixture.js";

/** `{name}` path templates of the client, as `METHOD path`. */
function clientRoutes(): Set<string> {
  return new Set(Object.values(allRoutes()).flatMap((family) => Object.values(family).map((r) => `${r.method} ${r.path}`)));
}

describe("@ovation/client against the real server: the /v1 API", () => {
  const fx = useClientFixture();

  it("calls every route the server documents in /openapi.json (and no route the server lacks)", async () => {
    const doc = await fx.client.service.openapi();
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).filter((m) => m !== "parameters").map((m) => `${m.toUpperCase()} ${path}`));
    const covered = clientRoutes();
    expect(documented.filter((route) => !covered.has(route))).toEqual([]);
    // The client's extra routes are the undocumented OpenAPI document itself.
    expect([...covered].filter((route) => !documented.includes(route))).toEqual(["GET /openapi.json"]);
  });

  it("service: health, the server ids and the token-signing keys", async () => {
    const health = await fx.client.service.health();
    expect(health.status).toBe("ok");
    expect(await fx.client.service.serverIds()).toEqual([health.server_id]);
    expect((await fx.client.service.jwks()).keys.length).toBeGreaterThan(0);
  });

  it("media: uploads an image's bytes and answers its URL; a type the server refuses is a typed error", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const uploaded = await fx.client.media.upload(png, "image/png");
    expect(uploaded).toMatchObject({ content_type: "image/png", size: png.length });
    expect(new Uint8Array(await (await fetch(uploaded.url.replace(/^https?:\/\/[^/]+/, fx.base))).arrayBuffer())).toEqual(png);
    const refused = await fx.client.media.upload(new Blob(["<svg/>"]), "image/svg+xml").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OvationHttpError);
    expect((refused as OvationHttpError).code).toBe("OVATION_ERR_MEDIA_UNSUPPORTED_TYPE");
  });

  it("users: the caller's account", async () => {
    const account = await fx.client.users.account();
    expect(account).toMatchObject({ id: fx.user.id, uuid: fx.user.uuid, name: "Sam", acting_user: { id: fx.user.id } });
  });

  it("alert sets: create, get, replace, list, activate, migrate, delete; errors become typed exceptions", async () => {
    const created = await fx.client.alertSets.create({ name: "Second", version: 3, settings: {}, types: {} });
    expect(created).toMatchObject({ name: "Second", version: 3, active: false });
    expect((await fx.client.alertSets.get(created.id)).id).toBe(created.id);
    const migrated = await fx.client.alertSets.migrate(created.id);
    expect(migrated.version).toBe(4);
    const renamed = await fx.client.alertSets.replace(created.id, { ...migrated, name: "Renamed", version: 4 });
    expect(renamed.name).toBe("Renamed");
    expect((await fx.client.alertSets.activate(created.id)).active).toBe(true);
    expect((await fx.client.alertSets.list()).data.map((s) => s.id)).toContain(created.id);

    const invalid = await fx.client.alertSets.replace(created.id, { ...renamed, version: 3 }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(OvationValidationError);
    expect((invalid as OvationValidationError).status).toBe(422);
    expect((invalid as OvationValidationError).code).toBe("OVATION_ERR_HTTP_VALIDATION");
    expect(Object.keys((invalid as OvationValidationError).errors)).toEqual(["version"]);

    await fx.client.alertSets.delete(created.id);
    const gone = await fx.client.alertSets.get(created.id).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(OvationNotFoundError);
    expect((gone as OvationNotFoundError).code).toBe("OVATION_ERR_ALERT_SETS_NOT_FOUND");
  });

  it("alerts: catalog, trigger (with de-duplication), test, log, replay and the queue controls", async () => {
    const sets = await fx.client.alertSets.list();
    if (!sets.data.some((s) => s.active)) await fx.client.alertSets.activate(sets.data[0]?.id ?? 0);
    const catalog = await fx.client.alerts.catalog();
    expect(catalog.platforms.map((p) => p.id)).toContain("twitch");
    const first = await fx.client.alerts.trigger({ template: "follow", data: { username: "ann" }, platform: "twitch", notification_id: "client-1" });
    expect(first.subscription.type).toBe("follow");
    const again = await fx.client.alerts.trigger({ template: "follow", data: { username: "ann" }, platform: "twitch", notification_id: "client-1" });
    expect(again.notification.id).toBe(first.notification.id);
    const test = await fx.client.alerts.test({ template: "follow" });
    expect(test.ovation?.test).toBe(true);
    const log = await fx.client.alerts.log({ limit: 5 });
    expect(log.data.map((e) => e.notification.notification.id)).toContain(first.notification.id);
    expect((await fx.client.alerts.replay(first.notification.id)).ovation?.replay).toBe(true);
    expect(await fx.client.alerts.pause()).toMatchObject({ action: "pause", paused: true });
    expect(await fx.client.alerts.resume()).toMatchObject({ action: "resume", paused: false });
    expect(await fx.client.alerts.skip()).toMatchObject({ action: "skip" });
    expect((await fx.client.alerts.clear()).cleared).toBeGreaterThanOrEqual(0);
    const source = await fx.client.browserSources.generate({ browser_source_type: "alerts" });
    expect(await fx.client.alerts.pause({ browserSourceId: source.id })).toMatchObject({ action: "pause", browser_source_id: source.id, paused: false, paused_sources: [source.id] });
    expect((await fx.client.alerts.log()).paused_sources).toEqual([source.id]);
    expect(await fx.client.alerts.queue("resume", { browserSourceId: source.id })).toMatchObject({ paused_sources: [] });
    expect((await fx.client.alerts.replay(first.notification.id, { browserSourceId: source.id })).ovation?.replay).toBe(true);
    const notMine = await fx.client.alerts.skip({ browserSourceId: 999_999 }).catch((e: unknown) => e);
    expect((notMine as OvationHttpError).code).toBe("OVATION_ERR_BROWSER_SOURCES_NOT_FOUND");
  });

  it("plugins: every plugin with its status and what to fix", async () => {
    const listing = await fx.client.plugins.list();
    expect(Array.isArray(listing.data)).toBe(true);
    expect(listing.unserved).toEqual([]);
    for (const plugin of listing.data) expect(plugin.fix === null || typeof plugin.fix === "string").toBe(true);
  });

  it("browser sources: generate, list, regenerate, and the page's config by access token", async () => {
    const source = await fx.client.browserSources.generate({ browser_source_type: "alerts" });
    expect(source.browser_source_type).toBe("alerts");
    expect((await fx.client.browserSources.list()).data.map((s) => s.id)).toContain(source.id);
    const config = await fx.clientWith({}).browserSources.config(source.access_token);
    expect(config.browser_source.id).toBe(source.id);
    expect(config.room).toContain(fx.user.uuid);
    const fresh = await fx.client.browserSources.regenerate(source.id);
    expect(fresh.access_token).not.toBe(source.access_token);
    const stale = await fx.clientWith({}).browserSources.config(source.access_token).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(OvationHttpError);
    expect((stale as OvationHttpError).code).toBe("OVATION_ERR_BROWSER_SOURCES_INVALID_TOKEN");
  });

  it("commands: create, get, replace, dry-run, list, delete; a template error names the response field", async () => {
    const command = await fx.client.commands.create({ command: "hello", response: "Hi {{ user.name }}!" });
    expect(command.commands).toEqual(["hello"]);
    expect((await fx.client.commands.get(command.id, { user: fx.user.id })).command).toBe("hello");
    const replaced = await fx.client.commands.replace(command.id, { command: "hello", response: "Hello there" });
    expect(replaced.response).toBe("Hello there");
    expect(await fx.client.commands.test({ message: "!hello" })).toMatchObject({ matched: "hello", text: "Hello there", status: "sent" });
    expect((await fx.client.commands.list()).data).toHaveLength(1);
    const broken = await fx.client.commands.create({ command: "broken", response: "{{ unclosed" }).catch((e: unknown) => e);
    expect(broken).toBeInstanceOf(OvationValidationError);
    expect(Object.keys((broken as OvationValidationError).errors)).toContain("response");
    await fx.client.commands.delete(command.id);
    expect((await fx.client.commands.list()).data).toEqual([]);
  });

  it("counters: create, update, change values, list, delete; a bad item is named by index", async () => {
    expect(await fx.client.counters.create([{ name: "deaths", keyword: "!Deaths" }])).toEqual([{ name: "deaths", keyword: "deaths", value: null, active: true }]);
    expect((await fx.client.counters.update([{ name: "deaths", value: 2 }]))[0]?.value).toBe(2);
    expect((await fx.client.counters.changeValues([{ name: "deaths", operation: "increment" }]))[0]?.value).toBe(3);
    expect((await fx.client.counters.list()).map((c) => c.name)).toEqual(["deaths"]);
    const missing = await fx.client.counters.changeValues([{ name: "nope", operation: "increment" }]).catch((e: unknown) => e);
    expect((missing as OvationValidationError).errors).toHaveProperty(["0.name"]);
    expect(await fx.client.counters.delete([{ name: "deaths" }])).toHaveLength(1);
  });

  it("timers: create, get, replace, list, delete", async () => {
    const timer = await fx.client.timers.create({ name: "socials", message: "Follow us", interval_minutes: 10 });
    expect((await fx.client.timers.get(timer.id)).name).toBe("socials");
    expect((await fx.client.timers.replace(timer.id, { name: "socials", message: "Follow!", interval_minutes: 15 })).interval_minutes).toBe(15);
    expect((await fx.client.timers.list()).data).toHaveLength(1);
    await fx.client.timers.delete(timer.id);
  });

  it("giveaways: open, current, close, draw, reroll; a second open is a conflict", async () => {
    expect((await fx.client.giveaways.current()).data).toBeNull();
    const opened = await fx.client.giveaways.open({ title: "Keys", keyword: "!join" });
    expect(opened.status).toBe("open");
    const twice = await fx.client.giveaways.open({ title: "Keys", keyword: "!join" }).catch((e: unknown) => e);
    expect(twice).toBeInstanceOf(OvationConflictError);
    expect((await fx.client.giveaways.current()).data?.id).toBe(opened.id);
    expect((await fx.client.giveaways.close()).status).toBe("closed");
    const draw = await fx.client.giveaways.draw().catch((e: unknown) => e);
    // Nobody entered: the draw is refused with the registry's code, not a crash.
    expect(draw).toBeInstanceOf(OvationHttpError);
    const reroll = await fx.client.giveaways.reroll({ platform: "twitch", user_platform_id: "1" }).catch((e: unknown) => e);
    expect(reroll).toBeInstanceOf(OvationHttpError);
  });

  it("moderation: read and replace the settings", async () => {
    const view = await fx.client.moderation.get();
    expect(view.settings).toBeDefined();
    const replaced = await fx.client.moderation.replace({ links: { enabled: true, allowed_domains: ["example.com"] } });
    expect(replaced.settings.links.enabled).toBe(true);
  });

  it("goal bars: create, get, replace, progress, list, delete", async () => {
    const goal = await fx.client.goalBars.create({ title: "Subs", kind: "subscribers", target: 10 });
    expect((await fx.client.goalBars.get(goal.id)).goal_bar.title).toBe("Subs");
    expect((await fx.client.goalBars.replace(goal.id, { title: "More subs", kind: "subscribers", target: 20 })).goal_bar.target).toBe(20);
    expect((await fx.client.goalBars.progress(goal.id, { operation: "set", value: 5 })).progress.current).toBe(5);
    expect((await fx.client.goalBars.list()).data).toHaveLength(1);
    await fx.client.goalBars.delete(goal.id);
  });

  it("maps a missing token to OvationAuthError with the registry code", async () => {
    const error = await fx.clientWith({}).users.account().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OvationAuthError);
    expect((error as OvationAuthError).status).toBe(401);
    expect((error as OvationAuthError).code).toMatch(/^OVATION_ERR_/);
  });
});
