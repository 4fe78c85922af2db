import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { privmsgLine } from "@ovation/plugin-twitch/testing";
import type { FakeHelix, FakeIrcServer } from "@ovation/plugin-twitch/testing";
import { waitFor } from "../../__tests__/socket-helpers.js";
import { api } from "../../identity/__tests__/oauth-helpers.js";
import { startTwitchChannels } from "./channels-harness.js";
import type { ChannelsServer, Streamer, TwitchChannels } from "./channels-harness.js";

/** A moderator's chat line in a Twitch channel. */
const modLine = (login: string, roomId: string, id: string, text: string) => privmsgLine(login, roomId, id, text, "modmia").replace("badges=;", "badges=moderator/1;");

describe("Twitch's own shoutouts and polls for the bot modules, through the Twitch fake", () => {
  let helix: FakeHelix;
  let chat: FakeIrcServer;
  let twitch: TwitchChannels;
  let server: ChannelsServer;
  let streamer: Streamer;
  let clock = Date.parse("2026-11-26T18:00:00Z");

  beforeAll(async () => {
    twitch = await startTwitchChannels({ annie: "7001" }, (fake) => {
      fake.now = () => clock;
      fake.addUser("friendly", "8001");
      fake.addUser("buddy", "8002");
      fake.channelInfo.set("8001", { game_name: "Celeste", title: "speedruns" });
    });
    ({ helix, chat, server } = twitch);
    await waitFor(() => server.app.platformPlugins.health().some((h) => h.name === "twitch" && h.status === "connected"), 20_000, "twitch up");
    streamer = server.streamer("Annie");
    helix.nextUser = "annie";
    await server.link(streamer, "twitch");
    await waitFor(() => server.app.platformPlugins.channelStatus("twitch").some((c) => c.state === "serving"), 30_000, "annie's channel serving");
  }, 90_000);
  afterAll(async () => {
    await twitch?.close();
  });

  it("!so @friendly: Twitch's shoutout with the broadcaster's token, and the link and category in chat; Twitch's limits are kept", { timeout: 60_000 }, async () => {
    chat.publish("annie", modLine("annie", "7001", "aaaaaaaa-0000-4000-8000-000000000001", "!so @Friendly"));
    await chat.waitFor((l) => l.includes("PRIVMSG #annie :Go check out Friendly at https://twitch.tv/friendly! They were last streaming Celeste."), 20_000);
    expect(helix.shoutouts).toEqual([{ from: "7001", to: "8001", moderator: "7001", at: clock }]);
    const call = helix.of("POST", "/chat/shoutouts")[0];
    expect(call?.token).toMatch(/^user-token-7001-/); // the broadcaster's own token, not the bot's

    // The module's cooldowns are the streamer's to set; Twitch's own 2 minutes still hold.
    expect((await api(server.base, "/v1/bots/@me/shoutouts/settings", streamer.token, { method: "PUT", body: { cooldown_seconds: 0, target_cooldown_minutes: 0 } })).status).toBe(200);
    clock += 30_000;
    const second = await api(server.base, "/v1/bots/@me/shoutouts", streamer.token, { method: "POST", body: { platform: "twitch", username: "buddy" } });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ login: "buddy", name: "Buddy", category: "Just Chatting", native: "unavailable", detail: expect.stringContaining("more than once every 2 minutes") });
    await chat.waitFor((l) => l.includes("PRIVMSG #annie :Go check out Buddy at https://twitch.tv/buddy! They were last streaming Just Chatting."), 20_000);
    expect(helix.shoutouts).toHaveLength(1);
    clock += 2 * 60_000;
    const third = await api(server.base, "/v1/bots/@me/shoutouts", streamer.token, { method: "POST", body: { platform: "twitch", username: "buddy" } });
    expect(third.body).toMatchObject({ native: "done" });
    expect(helix.shoutouts.map((s) => s.to)).toEqual(["8001", "8002"]);
    clock += 3 * 60_000;
    const again = await api(server.base, "/v1/bots/@me/shoutouts", streamer.token, { method: "POST", body: { platform: "twitch", username: "friendly" } });
    expect(again.body).toMatchObject({ native: "unavailable", detail: expect.stringContaining("more than once within 60 minutes") });
    const unknown = await api(server.base, "/v1/bots/@me/shoutouts", streamer.token, { method: "POST", body: { platform: "twitch", username: "nobody_here" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: "OVATION_ERR_SHOUTOUTS_UNKNOWN_USER" });
  });

  it("a poll runs as Twitch's own poll: Twitch's votes reach the tally, `!vote` on Twitch points to it, the end reads Twitch's result", { timeout: 60_000 }, async () => {
    const started = await api(server.base, "/v1/bots/@me/polls", streamer.token, { method: "POST", body: { title: "Next game?", choices: ["Celeste", "Hades"], duration_seconds: 300 } });
    expect(started.status).toBe(201);
    const poll = started.body as { native: { platform: string; poll_id: string }[] };
    expect(poll.native).toEqual([{ platform: "twitch", poll_id: expect.any(String), status: "running" }]);
    const twitchPoll = helix.polls.get(poll.native[0]!.poll_id);
    expect(twitchPoll).toMatchObject({ broadcaster_id: "7001", title: "Next game?", duration: 300, status: "ACTIVE" });
    await chat.waitFor((l) => l.includes("PRIVMSG #annie :Poll: Next game? — 1) Celeste, 2) Hades. Type !vote 1 to 2 (on Twitch: vote in the poll above the chat)"), 20_000);
    chat.publish("annie", privmsgLine("annie", "7001", "aaaaaaaa-0000-4000-8000-000000000010", "!vote 1", "viewer9"));
    await chat.waitFor((l) => l.includes("PRIVMSG #annie :@viewer9 vote in the Twitch poll above the chat."), 20_000);

    helix.vote(twitchPoll!.id, 0, 4);
    helix.vote(twitchPoll!.id, 1, 6);
    clock += 30_000;
    await server.app.ovation.botModules.tick();
    const running = await api(server.base, "/v1/bots/@me/polls", streamer.token);
    expect(running.body).toMatchObject({ current: { status: "open", total: 10, choices: [{ votes: 4, percent: 40 }, { votes: 6, percent: 60 }] } });

    helix.vote(twitchPoll!.id, 0, 3);
    const ended = await api(server.base, "/v1/bots/@me/polls/end", streamer.token, { method: "POST" });
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ status: "ended", total: 13, leading: [1], native: [{ platform: "twitch", status: "ended" }] });
    expect(helix.polls.get(twitchPoll!.id)?.status).toBe("TERMINATED");
    await chat.waitFor((l) => l.includes("PRIVMSG #annie :Poll over: Next game? — Celeste wins with 7 votes (54%)."), 20_000);
  });

  it("a poll Twitch cannot run (six choices) is a chat poll on Twitch too", { timeout: 60_000 }, async () => {
    const started = await api(server.base, "/v1/bots/@me/polls", streamer.token, { method: "POST", body: { title: "Pick", choices: ["a", "b", "c", "d", "e", "f"], duration_seconds: 60, announce: false } });
    expect(started.body).toMatchObject({ native: [], native_unavailable: [{ platform: "twitch", reason: "Twitch polls take 2 to 5 choices" }] });
    chat.publish("annie", privmsgLine("annie", "7001", "aaaaaaaa-0000-4000-8000-000000000020", "!vote 6", "viewer9"));
    await waitFor(async () => ((await api(server.base, "/v1/bots/@me/polls", streamer.token)).body as { current: { total: number } }).current.total === 1, 20_000, "the chat vote counted");
    expect((await api(server.base, "/v1/bots/@me/polls/end", streamer.token, { method: "POST" })).body).toMatchObject({ leading: [6] });
  });
});
