import type { ChatEvent } from "@ovation/core";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import type { OvationApp } from "../../app.js";
import { seedUser, tempDataDir, testConfig } from "../../__tests__/helpers.js";
import { listen, waitFor } from "../../__tests__/socket-helpers.js";
import { SendOnlyPlugin, TestConsoles } from "./console-harness.js";
import type { TestConsole } from "./console-harness.js";

/** The `channel()` lookup of the Kick-like platform: the stream's title and category. */
const lookups = {
  user: async () => null,
  channel: async (id: string) => (id === "kick-room" ? { id, name: "streamer", url: "https://kick.example/streamer", language: "en", title: "Speedrun night", game: "Celeste" } : null),
};

const SCOPES = ["chatbot:manage:commands", "chatbot:manage:points", "chatbot:manage:quotes", "chatbot:manage"];
const MINUTE = 60_000;

describe("loyalty points and quotes through the console and a platform plugin", () => {
  const data = tempDataDir();
  let app: OvationApp;
  let url: string;
  let token: string;
  let userId: number;
  let clock = Date.parse("2026-11-23T20:00:00Z");
  let kick: SendOnlyPlugin;
  let kickIds = 0;
  const consoles = new TestConsoles(() => ({ url, token }));
  const open = (as: string, badges: string[] = []) => consoles.open({ as, badges });
  const api = (method: string, path: string, body?: unknown, bearer: string | null = token) =>
    fetch(`${url}${path}`, {
      method,
      headers: { ...(bearer === null ? {} : { authorization: `Bearer ${bearer}` }), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const balance = async (viewer: string) => ((await (await api("GET", `/v1/bots/@me/points/viewers/${viewer}`)).json()) as { points: number }).points;
  /** A line typed by a viewer who expects no answer, processed to the end. */
  const chat = async (viewer: TestConsole, text: string) => {
    await viewer.say(text);
    await app.platformPlugins.idle();
  };
  const kickLine = async (username: string, platformId: string, message: string, badges: string[] = []) => {
    const event: ChatEvent = {
      id: `k${++kickIds}`,
      type: "message",
      timestamp: clock,
      platform: "kick",
      channel: kick.channels()[0]!,
      message,
      fragments: [{ type: "text", text: message }],
      parent: null,
      user: { platform_id: platformId, username, avatar_url: "", color: null, badges: badges.map((type) => ({ type, text: null, id: type, count: null })) },
      attributes: { edited: false, accent: null, action: false, highlight: false },
    };
    expect(kick.context?.emitChat(event)).toEqual({ accepted: true });
    await app.platformPlugins.idle();
  };
  const tick = async (minutes: number) => {
    clock += minutes * MINUTE;
    await app.ovation.botModules.tick();
  };

  beforeAll(async () => {
    // A Kick-like platform that sends and answers the `channel()` lookup.
    kick = new SendOnlyPlugin(() => userId, { name: "lookupkick", lookups });
    app = await buildApp({ config: testConfig(data.dir), logger: pino({ level: "silent" }), botModules: { now: () => clock }, platforms: { env: {}, extra: [kick] } });
    url = await listen(app);
    ({ token, userId } = seedUser(app, "Streamer", SCOPES));
    app.ovation.botModules.reload(userId);
  });
  afterAll(async () => {
    consoles.closeAll();
    await app.close();
    data.remove();
  });

  it("points accrue per minute watched and per message while live, and a priced command spends them (refused in the bot's language)", { timeout: 60_000 }, async () => {
    const settings = await api("PUT", "/v1/bots/@me/points/settings", { currency: "cookies", per_minute: 2, subscriber_bonus: 3, active_minutes: 10, per_message: 1, message_cooldown_seconds: 60 });
    expect(settings.status).toBe(200);
    expect(await settings.json()).toMatchObject({ currency: "cookies", per_minute: 2, enabled: true, follow: 0 });
    expect((await api("POST", "/v1/bots/@me/commands", { command: "treat", response: "Here is your treat", price: 25, global_cooldown: 0 })).status).toBe(201);

    const alice = await open("alice");
    const bob = await open("bob", ["subscriber"]);
    // Offline: lines are seen, nothing is earned.
    await chat(alice, "hi before the stream");
    await tick(3);
    app.ovation.commands.runtime.setLive(String(userId), true);
    await tick(0); // going live starts the clock of watch time
    await chat(alice, "hi");
    await chat(bob, "hello");
    await tick(5);
    // 5 minutes × 2, plus one message; the subscriber gets 5 × (2 + 3) plus one message.
    expect(await balance("ovation:console-alice")).toBe(11);
    expect(await balance("ovation:console-bob")).toBe(26);
    await alice.say("!points");
    await alice.heard("@alice has 11 cookies.");

    await alice.say("!treat");
    await alice.heard("@alice !treat costs 25 cookies; you have 11.");
    expect(await balance("ovation:console-alice")).toBe(11);

    // Ten minutes pass (more than the 5 a tick makes up for); bob said nothing for longer than the active window.
    clock += 10 * MINUTE;
    await chat(alice, "still here");
    await tick(0);
    expect(await balance("ovation:console-alice")).toBe(11 + 5 * 2 + 1);
    expect(await balance("ovation:console-bob")).toBe(26);
    await tick(4);
    expect(await balance("ovation:console-alice")).toBe(22 + 4 * 2);

    await alice.say("!treat");
    await alice.heard("Here is your treat");
    expect(await balance("ovation:console-alice")).toBe(30 - 25);

    const owned = await consoles.open();
    await owned.say("!language de");
    await owned.heard("Ich spreche jetzt Deutsch.");
    const carol = await open("carol");
    await carol.say("!treat");
    await carol.heard("@carol !treat kostet 25 cookies; du hast 0.");
    await carol.say("!points");
    await carol.heard("@carol hat 0 cookies.");
    await owned.say("!language en");
    await owned.heard("I speak English now.");

    const history = (await (await api("GET", "/v1/bots/@me/points/history?limit=50")).json()) as { data: { reason: string; viewer: string | null; delta: number; viewers: number }[] };
    const reasons = history.data.map((e) => e.reason);
    expect(reasons).toEqual(expect.arrayContaining(["watch", "message", "price"]));
    expect(history.data.find((e) => e.reason === "price")).toMatchObject({ viewer: "ovation:console-alice", delta: -25 });
    expect(history.data.find((e) => e.reason === "watch")).toMatchObject({ viewers: 1, delta: 8 });
    app.ovation.commands.runtime.setLive(String(userId), false);
  });

  it("!points @user for everyone; !addpoints and !removepoints for moderators only; alerts earn their points", { timeout: 60_000 }, async () => {
    const mod = await open("moddy", ["moderator"]);
    const viewer = await open("dave");
    await chat(mod, "hello chat");
    await viewer.say("!points @alice");
    await viewer.heard("@alice has 5 cookies.");
    await viewer.say("!points @nobody");
    await viewer.heard("I have not seen @nobody in chat yet.");

    await viewer.say("!addpoints @dave 1000");
    await viewer.heard("@dave, only moderators can change cookies.");
    expect(await balance("ovation:console-dave")).toBe(0);

    await mod.say("!addpoints @alice 100");
    await mod.heard("@alice now has 105 cookies (+100).");
    await mod.say("!removepoints @alice 500");
    await mod.heard("@alice now has 0 cookies (-105).");
    await mod.say("!addpoints @alice lots");
    await mod.heard("Usage: !addpoints @user amount");
    const history = (await (await api("GET", "/v1/bots/@me/points/history?reason=remove")).json()) as { data: unknown[] };
    expect(history.data[0]).toMatchObject({ reason: "remove", viewer: "ovation:console-alice", delta: -105, balance: 0, by: "moddy" });

    const current = (await (await api("GET", "/v1/bots/@me/points/settings")).json()) as Record<string, unknown>;
    expect((await api("PUT", "/v1/bots/@me/points/settings", { ...current, follow: 50, cheer_per_100: 10 })).status).toBe(200);
    app.ovation.botModules.onNotification(userId, "follow", "ovation", {}, "console-dave", "dave");
    app.ovation.botModules.onNotification(userId, "cheer", "ovation", { amount: 250 }, "console-dave", "dave");
    await expect.poll(() => balance("ovation:console-dave")).toBe(50 + 25);
  });

  it("a viewer whose platform accounts are linked to one Ovation account has one balance on every platform", { timeout: 60_000 }, async () => {
    // Before the link: points on the console wallet (an import), which the link carries over.
    const imported = await api("POST", "/v1/bots/@me/points/import", { csv: "viewer,name,platform,points\novation:console-vera,vera,ovation,40\n", mode: "set" });
    expect(imported.status).toBe(200);
    const vera = app.ovation.repos.users.create({ name: "Vera", email: "vera@example.test" });
    app.ovation.repos.connections.upsert({ user_id: vera.id, platform: "ovation", platform_user_id: "console-vera", username: "vera" });
    app.ovation.repos.connections.upsert({ user_id: vera.id, platform: "kick", platform_user_id: "k-vera", username: "VeraOnKick" });
    app.ovation.commands.runtime.setLive(String(userId), true);
    const onConsole = await open("vera");
    await tick(0);
    await chat(onConsole, "hi from the console");
    await kickLine("VeraOnKick", "k-vera", "hi from kick");
    await tick(2);
    const wallet = `account:${vera.id}`;
    // 40 carried over, 2 minutes × 2 once (one person), one message point per platform line within the cooldown: one.
    expect(await balance(wallet)).toBe(40 + 4 + 1);
    // The console wallet is emptied into the account's.
    expect(await balance("ovation:console-vera")).toBe(0);
    await kickLine("VeraOnKick", "k-vera", "!points");
    expect(kick.sent.at(-1)).toBe("@VeraOnKick has 45 cookies.");
    // A command's price spends the same balance on Kick.
    await kickLine("VeraOnKick", "k-vera", "!treat");
    expect(kick.sent.at(-1)).toBe("Here is your treat");
    expect(await balance(wallet)).toBe(20);
    app.ovation.commands.runtime.setLive(String(userId), false);
  });

  it("exports CSV and imports it back; a file with a bad line is refused whole, naming the line, and changes nothing", async () => {
    const before = (await (await api("GET", "/v1/bots/@me/points/export")).json()) as { csv: string; viewers: number };
    const lines = before.csv.trim().split("\r\n");
    expect(lines[0]).toBe("viewer,name,platform,points");
    expect(lines).toContain("ovation:console-bob,bob,ovation,26");

    const bad = ["viewer,name,platform,points", "ovation:console-bob,bob,ovation,500", "ovation:console-new,=HYPERLINK(1),ovation,ten", "not a wallet,x,ovation,5", "twitch:77,Zed,twitch,7"].join("\n");
    const refused = await api("POST", "/v1/bots/@me/points/import", { csv: bad });
    expect(refused.status).toBe(422);
    const body = (await refused.json()) as { code: string; errors: Record<string, string[]> };
    expect(body.code).toBe("OVATION_ERR_POINTS_INVALID_CSV");
    expect(Object.keys(body.errors)).toEqual(["line 3", "line 4"]);
    expect(body.errors["line 3"]?.[0]).toContain('points "ten" must be a whole number');
    expect(body.errors["line 4"]?.[0]).toContain('viewer "not a wallet" is not a wallet');
    const unchanged = (await (await api("GET", "/v1/bots/@me/points/export")).json()) as { csv: string };
    expect(unchanged.csv).toBe(before.csv);

    const good = ["viewer,name,platform,points", "ovation:console-bob,bob,ovation,500", 'ovation:console-new,"=HYPERLINK(1), said ""hi""",ovation,10', "twitch:77,Zed,twitch,7"].join("\r\n");
    const accepted = await api("POST", "/v1/bots/@me/points/import", { csv: good });
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual({ imported: 3, mode: "set" });
    const after = (await (await api("GET", "/v1/bots/@me/points/export")).json()) as { csv: string };
    // A name a spreadsheet would run as a formula is exported behind a quote mark, and read back without it.
    expect(after.csv).toContain(`ovation:console-new,"'=HYPERLINK(1), said ""hi""",ovation,10`);
    const again = await api("POST", "/v1/bots/@me/points/import", { csv: after.csv });
    expect(again.status).toBe(200);
    expect(((await (await api("GET", "/v1/bots/@me/points/export")).json()) as { csv: string }).csv).toBe(after.csv);
    expect(await (await api("GET", "/v1/bots/@me/points/viewers/ovation:console-new")).json()).toEqual({ viewer: "ovation:console-new", name: '=HYPERLINK(1), said "hi"', platform: "ovation", points: 10 });
    const board = (await (await api("GET", "/v1/bots/@me/points/leaderboard?limit=2")).json()) as { data: { rank: number; viewer: string; points: number }[]; total: number };
    expect(board.data).toEqual([expect.objectContaining({ rank: 1, viewer: "ovation:console-bob", points: 500 }), expect.objectContaining({ rank: 2 })]);
    expect(board.total).toBeGreaterThanOrEqual(6);
    const added = await api("POST", "/v1/bots/@me/points/import", { csv: "viewer,points\ntwitch:77,-10\n", mode: "add" });
    expect(added.status).toBe(200);
    expect(await balance("twitch:77")).toBe(0);
  });

  it("quotes: moderators add them in chat with the stream's category, title and date; anyone reads them; the API edits them", { timeout: 60_000 }, async () => {
    await kickLine("KickMod", "k-mod", "!quote add Never gonna give you up", ["moderator"]);
    expect(kick.sent.at(-1)).toBe("Quote #1 added.");
    await kickLine("KickViewer", "k-viewer", "!quote add I am not a mod");
    expect(kick.sent.at(-1)).toBe("@KickViewer, only moderators can add quotes.");
    const quote = await (await api("GET", "/v1/bots/@me/quotes/1")).json();
    expect(quote).toEqual({ id: 1, text: "Never gonna give you up", game: "Celeste", title: "Speedrun night", said_at: new Date(clock).toISOString(), added_by: "KickMod", platform: "kick" });

    const viewer = await open("quoter");
    await viewer.say("!quote 1");
    await viewer.heard(`#1: "Never gonna give you up" (Celeste, ${new Date(clock).toISOString().slice(0, 10)})`);
    await viewer.say("!quote 7");
    await viewer.heard("There is no quote #7.");
    const mod = await open("quotemod", ["moderator"]);
    await mod.say("!quote add  the console has no title  ");
    await mod.heard("Quote #2 added.");
    const before = viewer.said.length;
    await viewer.say("!quote");
    await waitFor(() => viewer.said.length > before, 10_000, "a random quote");
    expect(viewer.said.at(-1)?.text).toMatch(/^#[12]: "/);

    const created = await api("POST", "/v1/bots/@me/quotes", { text: "From the dashboard", game: "Tetris", said_at: "2026-01-02T03:04:05Z" });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ id: 3, text: "From the dashboard", game: "Tetris", title: null, said_at: "2026-01-02T03:04:05.000Z", added_by: "api" });
    const edited = await api("PUT", "/v1/bots/@me/quotes/3", { text: "Edited", game: null, title: "A title" });
    expect(await edited.json()).toMatchObject({ id: 3, text: "Edited", game: null, title: "A title", said_at: "2026-01-02T03:04:05.000Z" });
    expect((await api("DELETE", "/v1/bots/@me/quotes/2")).status).toBe(204);
    const list = (await (await api("GET", "/v1/bots/@me/quotes")).json()) as { data: { id: number }[] };
    expect(list.data.map((q) => q.id)).toEqual([1, 3]);
    // Numbers are not reused after a deletion.
    expect(await (await api("POST", "/v1/bots/@me/quotes", { text: "Fourth" })).json()).toMatchObject({ id: 4 });
  });

  it("the routes check the token (401), its scope (403), the input (422) and what exists (404)", async () => {
    const other = seedUser(app, "Other", ["chatbot:manage:commands"]);
    for (const path of ["/v1/bots/@me/points/leaderboard", "/v1/bots/@me/quotes"]) {
      expect((await api("GET", path, undefined, null)).status).toBe(401);
      expect((await api("GET", path, undefined, other.token)).status).toBe(403);
      expect((await api("GET", path.replace("@me", String(userId)), undefined, other.token)).status).toBe(403);
    }
    const invalid = await api("PUT", "/v1/bots/@me/points/settings", { per_minute: -1, currency: "" });
    expect(invalid.status).toBe(422);
    expect(Object.keys(((await invalid.json()) as { errors: Record<string, string[]> }).errors).sort()).toEqual(["currency", "per_minute"]);
    expect((await api("POST", "/v1/bots/@me/points/viewers/twitch:77/adjust", { amount: 0 })).status).toBe(422);
    expect((await api("POST", "/v1/bots/@me/quotes", { text: "  " })).status).toBe(422);
    const missing = await api("GET", "/v1/bots/@me/points/viewers/twitch:nobody");
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: string }).code).toBe("OVATION_ERR_POINTS_VIEWER_NOT_FOUND");
    const noQuote = await api("DELETE", "/v1/bots/@me/quotes/99");
    expect(noQuote.status).toBe(404);
    expect(((await noQuote.json()) as { code: string }).code).toBe("OVATION_ERR_QUOTES_NOT_FOUND");
    const adjusted = await api("POST", "/v1/bots/@me/points/viewers/twitch:77/adjust", { amount: 12 });
    expect(await adjusted.json()).toEqual({ viewer: "twitch:77", name: "Zed", platform: "twitch", points: 12 });
    const doc = (await (await fetch(`${url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/v1/bots/{user}/points/leaderboard", "/v1/bots/{user}/quotes/{id}"]));
  });
});
