import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import type { OvationApp } from "../../app.js";
import { seedUser, tempDataDir, testConfig } from "../../__tests__/helpers.js";
import { connect, join, listen, waitFor } from "../../__tests__/socket-helpers.js";
import { TestConsoles } from "./console-harness.js";

const SCOPES = ["chatbot:manage:queue", "chatbot:manage:polls", "chatbot:manage:shoutouts", "widgets:manage"];

describe("the viewer queue, polls and shoutouts through the console plugin", () => {
  const data = tempDataDir();
  let app: OvationApp;
  let url: string;
  let owner: ReturnType<typeof seedUser>;
  let other: ReturnType<typeof seedUser>;
  let clock = Date.parse("2026-11-26T18:00:00Z");
  const consoles = new TestConsoles(() => ({ url, token: owner.token }));
  const open = (auth: { as?: string; badges?: string[] } = {}) => consoles.open(auth);
  const call = (method: "GET" | "POST" | "PUT" | "DELETE", path: string, payload?: unknown, token = owner.token) =>
    app.inject({ method, url: path, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as object }) });

  beforeAll(async () => {
    app = await buildApp({ config: testConfig(data.dir), logger: pino({ level: "silent" }), botModules: { now: () => clock } });
    url = await listen(app);
    owner = seedUser(app, "Streamer", SCOPES);
    other = seedUser(app, "Other", ["user:read", "chatbot:manage"]);
  });
  afterAll(async () => {
    consoles.closeAll();
    await app.close();
    data.remove();
  });

  it("a queue of five viewers: they join, ask their place, and are picked in the order they joined", { timeout: 60_000 }, async () => {
    const streamer = await open();
    const names = ["ana", "ben", "cai", "dee", "eli"];
    const viewers = await Promise.all(names.map((as) => open({ as })));
    // A browser source of the user hears every change.
    const source = await connect(url, { browserSourceToken: app.ovation.repos.browserSources.findOrCreate(owner.userId, "queue", null).record.access_token });
    await join(source, `${owner.uuid}.ovation.${owner.userId}`);
    const updates: { event: string; payload: unknown }[] = [];
    source.on("bot-module", (update) => void updates.push(update));

    await viewers[0]!.say("!join");
    await streamer.heard("The queue is closed.");
    expect((await call("POST", "/v1/bots/@me/queue/open")).statusCode).toBe(200);
    await streamer.heard("The queue is open: type !join to join!");
    for (const [i, viewer] of viewers.entries()) {
      await viewer.say(i === 2 ? "!join cai#1234" : "!join");
      await streamer.heard(`@${names[i]} joined the queue at position ${i + 1}.`);
    }
    await viewers[1]!.say("!join");
    await streamer.heard("@ben you are already in the queue at position 2.");
    await viewers[3]!.say("!position");
    await streamer.heard("@dee you are number 4 of 5 in the queue.");
    await waitFor(() => updates.some((u) => u.event === "queue.updated" && (u.payload as { count: number }).count === 5), 10_000, "the source hearing five viewers");

    // A viewer cannot pick; the broadcaster can, in chat and through the API.
    await viewers[4]!.say("!queue next");
    await streamer.heard("The queue is open with 5 waiting: next up @ana, @ben, @cai.");
    await streamer.say("!queue next");
    await streamer.heard("Up next: @ana!");
    const two = await call("POST", "/v1/bots/@me/queue/pick", { mode: "next", count: 2 });
    expect(two.statusCode).toBe(200);
    expect(two.json().picked.map((p: { username: string }) => p.username)).toEqual(["ben", "cai"]);
    expect(two.json().picked[1].note).toBe("cai#1234");
    await streamer.heard("Up next: @ben, @cai (cai#1234)!");
    await viewers[3]!.say("!position");
    await streamer.heard("@dee you are number 1 of 2 in the queue.");
    await streamer.say("!queue next 5");
    await streamer.heard("Up next: @dee, @eli!");
    const after = (await call("GET", "/v1/bots/@me/queue")).json();
    expect(after).toMatchObject({ open: true, count: 0, entries: [] });
    expect(after.picked.map((p: { username: string }) => p.username)).toEqual(["eli", "dee", "cai", "ben", "ana"]);
    expect((await call("POST", "/v1/bots/@me/queue/pick", { mode: "random" })).json()).toEqual({ message: "Nobody is waiting in the queue.", code: "OVATION_ERR_QUEUE_EMPTY" });
    source.close();
  });

  it("puts subscribers first with subscriber priority, and lets viewers leave", { timeout: 60_000 }, async () => {
    const streamer = await open();
    const plain = await open({ as: "plain" });
    const sub = await open({ as: "subby", badges: ["subscriber"] });
    expect((await call("PUT", "/v1/bots/@me/queue/settings", { subscriber_priority: true, announce: false })).json().settings).toEqual({ subscriber_priority: true, max_entries: 1000, announce: false });
    await plain.say("!join");
    await streamer.heard("@plain joined the queue at position 1.");
    await sub.say("!join");
    await streamer.heard("@subby joined the queue at position 1.");
    await plain.say("!position");
    await streamer.heard("@plain you are number 2 of 2 in the queue.");
    await sub.say("!leave");
    await streamer.heard("@subby left the queue.");
    await sub.say("!leave");
    await streamer.heard("@subby you are not in the queue.");
    expect((await call("DELETE", "/v1/bots/@me/queue/entries/ovation/console-plain")).statusCode).toBe(204);
    const gone = await call("DELETE", "/v1/bots/@me/queue/entries/ovation/console-plain");
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe("OVATION_ERR_QUEUE_NOT_IN_QUEUE");
  });

  it("runs a chat poll where no platform has its own: votes, changed votes, the result at its time", { timeout: 60_000 }, async () => {
    const streamer = await open();
    const voters = await Promise.all(["v1", "v2", "v3", "v4"].map((as) => open({ as })));
    const started = await call("POST", "/v1/bots/@me/polls", { title: "Which map?", choices: ["Dust", "Mirage", "Inferno"], duration_seconds: 60 });
    expect(started.statusCode).toBe(201);
    expect(started.json()).toMatchObject({ status: "open", total: 0, native: [], native_unavailable: [{ platform: "twitch", reason: "the bot is not in this channel on twitch" }] });
    await streamer.heard("Poll: Which map? — 1) Dust, 2) Mirage, 3) Inferno. Type !vote 1 to 3");
    expect((await call("POST", "/v1/bots/@me/polls", { title: "Again", choices: ["a", "b"] })).json().code).toBe("OVATION_ERR_POLLS_ALREADY_OPEN");
    // Lines are handled side by side: wait for each step's votes before the next.
    const current = async () => (await call("GET", "/v1/bots/@me/polls")).json().current as { total: number; choices: { votes: number }[] };
    await voters[0]!.say("!vote 2");
    await voters[1]!.say("!vote 2");
    await voters[2]!.say("!vote 1");
    await waitFor(async () => (await current()).total === 3, 10_000, "three votes");
    await voters[3]!.say("!vote 9");
    await streamer.heard("@v4 type !vote 1 to 3.");
    await voters[2]!.say("!vote 2"); // changes their vote
    await waitFor(async () => (await current()).choices[1]?.votes === 3, 10_000, "the changed vote");
    await voters[3]!.say("!vote 3");
    await waitFor(async () => (await current()).total === 4, 10_000, "four votes");
    await streamer.say("!poll");
    await streamer.heard("Poll: Which map? — 1) Dust: 0, 2) Mirage: 3, 3) Inferno: 1. Type !vote 1 to 3");
    clock += 61_000;
    await app.ovation.botModules.tick();
    await streamer.heard("Poll over: Which map? — Mirage wins with 3 votes (75%).");
    const polls = (await call("GET", "/v1/bots/@me/polls")).json();
    expect(polls.current).toMatchObject({ status: "ended", total: 4, leading: [2], ended_at: clock - 1000 });
    await voters[0]!.say("!vote 1");
    await streamer.heard("There is no poll open.");
    expect((await call("POST", "/v1/bots/@me/polls/end")).json().code).toBe("OVATION_ERR_POLLS_NONE_OPEN");
  });

  it("gives a shoutout in chat with a link where the platform has no shoutout of its own, within the cooldowns", { timeout: 60_000 }, async () => {
    const streamer = await open();
    const viewer = await open({ as: "rando" });
    await viewer.say("!so @friend");
    await streamer.say("!so");
    await streamer.heard("Usage: !so @name");
    await streamer.say("!so @friend");
    await streamer.heard("Go check out friend!");
    await streamer.say("!so @another");
    await streamer.heard("Shoutouts are cooling down: try again in 120 s.");
    const listed = (await call("GET", "/v1/bots/@me/shoutouts")).json();
    expect(listed.recent).toMatchObject([{ login: "friend", platform: "ovation", url: "", category: "", native: "unavailable", text: "Go check out friend!" }]);
    expect(streamer.said.filter((o) => o.text.includes("rando") || o.text.includes("friend")).length).toBe(1); // the viewer's !so stayed quiet
  });

  it("checks the routes' token, scope and bodies", async () => {
    for (const path of ["/v1/bots/@me/queue", "/v1/bots/@me/polls", "/v1/bots/@me/shoutouts"]) {
      expect((await call("GET", path, undefined, "not-a-token")).statusCode).toBe(401);
      expect((await call("GET", path, undefined, other.token)).statusCode).toBe(403);
      expect((await call("GET", path.replace("@me", String(owner.userId)), undefined, other.token)).statusCode).toBe(403);
    }
    const badPoll = await call("POST", "/v1/bots/@me/polls", { title: "", choices: ["only one"], duration_seconds: 5 });
    expect(badPoll.statusCode).toBe(422);
    expect(Object.keys(badPoll.json().errors).sort()).toEqual(["choices", "duration_seconds", "title"]);
    const badPick = await call("POST", "/v1/bots/@me/queue/pick", { mode: "last", count: 50 });
    expect(badPick.statusCode).toBe(422);
    expect(Object.keys(badPick.json().errors).sort()).toEqual(["count", "mode"]);
    const badShout = await call("POST", "/v1/bots/@me/shoutouts", { platform: "twitch", username: "not a login!" });
    expect(badShout.statusCode).toBe(422);
    expect(Object.keys(badShout.json().errors)).toEqual(["username"]);
    const badSettings = await call("PUT", "/v1/bots/@me/shoutouts/settings", { cooldown_seconds: -1 });
    expect(badSettings.statusCode).toBe(422);
    const doc = (await (await fetch(`${url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => /\/(queue|polls|shoutouts)/.test(p)).length).toBeGreaterThanOrEqual(8);
  });
});
