import { describe, expect, it } from "vitest";
import { chatEvent } from "../../__tests__/chat-events.js";
import { InMemoryKeyValueStore } from "../../key-value-store.js";
import type { BotChatLine, BotModuleContext, PlatformAction, PlatformActionResult } from "../../runtime/bot-module.js";
import { POLLS_TABLE, PollModule } from "../polls/poll-module.js";
import { QUEUE_TABLE, QueueModule } from "../queue/queue-module.js";
import { ShoutoutModule } from "../shoutouts/shoutout-module.js";

/** A context over a real in-memory store, recording what the modules say, publish and ask of platforms. */
function harness(actions: (platform: string, action: PlatformAction) => PlatformActionResult = () => ({ result: "unavailable", reason: "no plugin" })) {
  let clock = 1_000_000;
  const announced: string[] = [];
  const published: { event: string; payload: unknown }[] = [];
  const asked: { platform: string; action: PlatformAction }[] = [];
  const ctx: BotModuleContext = {
    store: new InMemoryKeyValueStore(),
    now: () => clock,
    language: () => "en",
    isLive: () => true,
    announce: async (_channel, text) => void announced.push(text),
    platformAction: async (_channel, platform, action) => {
      asked.push({ platform, action });
      return actions(platform, action);
    },
    publish: (_channel, event, payload) => void published.push({ event, payload }),
    log: { info: () => {}, warn: () => {}, error: () => {} },
  };
  return { ctx, announced, published, asked, advance: (ms: number) => (clock += ms) };
}

const line = (text: string, user: string, badges: string[] = [], platform = "twitch"): BotChatLine => {
  const event = { ...chatEvent(text, { user, username: user, badges }), platform };
  return { event, plugin: platform, channel: event.channel.id };
};
const said = (result: { answers?: readonly { text: string }[] } | null) => result?.answers?.map((a) => a.text) ?? [];

describe("QueueModule", () => {
  it("orders subscribers first with subscriber priority, draws random picks among them, and stops at max_entries", async () => {
    const { ctx } = harness();
    const queue = new QueueModule({ random: (max) => max - 1 });
    await queue.setOpen("chan-1", true, ctx);
    await queue.configure("chan-1", { subscriber_priority: true, max_entries: 3, announce: false }, ctx);
    expect(said(await queue.onChat(line("!join", "a"), ctx))).toEqual(["@a joined the queue at position 1."]);
    expect(said(await queue.onChat(line("!join", "b"), ctx))).toEqual(["@b joined the queue at position 2."]);
    expect(said(await queue.onChat(line("!join", "s1", ["subscriber"]), ctx))).toEqual(["@s1 joined the queue at position 1."]);
    expect(said(await queue.onChat(line("!join", "s2", ["subscriber"]), ctx))).toEqual(["The queue is full (3 viewers)."]);
    expect((await queue.view("chan-1", ctx)).entries.map((e) => e.username)).toEqual(["s1", "a", "b"]);
    expect((await queue.pick("chan-1", "random", 1, ctx)).map((p) => p.username)).toEqual(["s1"]);
    // No subscriber left: random among everyone (the test's random takes the last).
    expect((await queue.pick("chan-1", "random", 2, ctx)).map((p) => p.username)).toEqual(["b", "a"]);
    expect(await queue.pick("chan-1", "next", 1, ctx)).toEqual([]);
  });

  it("leaves a stored queue it cannot read as it is", async () => {
    const { ctx } = harness();
    await ctx.store.update("chan-1", QUEUE_TABLE, "state", () => ({ open: "yes" }));
    const queue = new QueueModule();
    await expect(queue.onChat(line("!join", "a"), ctx)).rejects.toThrow("invalid stored queue");
    expect((await ctx.store.table("chan-1", QUEUE_TABLE))["state"]).toEqual({ open: "yes" });
    expect(await queue.onChat(line("hello there", "a"), ctx)).toBeNull();
  });
});

describe("PollModule", () => {
  it("adds the platform's own votes to the chat votes and reads the final ones at the end", async () => {
    let twitchVotes = [2, 1];
    const h = harness((platform, action) => {
      if (platform !== "twitch") return { result: "unavailable", reason: "none" };
      if (action.type === "poll_start") return { result: "done", data: { poll_id: "tw-1" } };
      return { result: "done", data: { poll_id: "tw-1", status: action.type === "poll_end" ? "ended" : "running", choices: twitchVotes.map((votes) => ({ votes })) } };
    });
    const polls = new PollModule({ nativePlatforms: ["twitch", "kick"] });
    const started = await polls.start("chan-1", { title: "Tea or coffee?", choices: ["Tea", "Coffee"], duration_seconds: 60 }, h.ctx);
    expect(started).toMatchObject({ started: true, poll: { native: [{ platform: "twitch", poll_id: "tw-1" }], native_unavailable: [{ platform: "kick", reason: "none" }] } });
    expect(h.announced).toEqual(["Poll: Tea or coffee? — 1) Tea, 2) Coffee. Type !vote 1 to 2 (on Twitch: vote in the poll above the chat)"]);
    expect(said(await polls.onChat(line("!vote 1", "t1"), h.ctx))).toEqual(["@t1 vote in the Twitch poll above the chat."]);
    expect(said(await polls.onChat(line("!vote 2", "k1", [], "kick"), h.ctx))).toEqual([]);
    expect(said(await polls.onChat(line("!vote 2", "k2", [], "kick"), h.ctx))).toEqual([]);
    await polls.tick(h.ctx);
    expect((await polls.current("chan-1", h.ctx))?.choices.map((c) => c.votes)).toEqual([2, 3]);
    twitchVotes = [5, 1];
    h.advance(60_000);
    await polls.tick(h.ctx);
    const ended = await polls.current("chan-1", h.ctx);
    expect(ended).toMatchObject({ status: "ended", total: 8, leading: [1], native: [{ status: "ended" }] });
    expect(h.announced.at(-1)).toBe("Poll over: Tea or coffee? — Tea wins with 5 votes (63%).");
    expect(h.published.at(-1)?.event).toBe("poll.updated");
    // The next poll moves this one to the history.
    await polls.start("chan-1", { title: "Next?", choices: ["a", "b"], native: false, announce: false }, h.ctx);
    expect((await polls.history("chan-1", h.ctx)).map((p) => p.title)).toEqual(["Tea or coffee?"]);
    expect(Object.keys(await h.ctx.store.table("chan-1", POLLS_TABLE)).sort()).toEqual(["current", "history"]);
  });

  it("says a tie and nobody voting", async () => {
    const h = harness();
    const polls = new PollModule({ nativePlatforms: [] });
    await polls.start("chan-1", { title: "A?", choices: ["x", "y"] }, h.ctx);
    expect(await polls.end("chan-1", h.ctx)).toMatchObject({ poll: { total: 0, leading: [] } });
    expect(h.announced.at(-1)).toBe("Poll over: A? — nobody voted.");
    await polls.start("chan-1", { title: "B?", choices: ["x", "y"] }, h.ctx);
    await polls.onChat(line("!vote 1", "u1"), h.ctx);
    await polls.onChat(line("!vote 2", "u2"), h.ctx);
    await polls.end("chan-1", h.ctx);
    expect(h.announced.at(-1)).toBe("Poll over: B? — a tie between x, y with 1 votes each.");
  });
});

describe("ShoutoutModule", () => {
  it("uses the platform's channel info and own shoutout, keeps both cooldowns, and gives them back for an unknown streamer", async () => {
    const h = harness((_platform, action) => {
      if (action.type === "channel_info") {
        return action.username === "ghost"
          ? { result: "done", data: { found: false } }
          : { result: "done", data: { found: true, user_id: `id-${action.username}`, display_name: action.username.toUpperCase(), category: "Chess", url: `https://twitch.tv/${action.username}` } };
      }
      return { result: "done" };
    });
    const so = new ShoutoutModule();
    expect(said(await so.onChat(line("!so @pal", "viewer"), h.ctx))).toEqual([]);
    expect(said(await so.onChat(line("!so @ghost", "mod", ["moderator"]), h.ctx))).toEqual(["I can't find ghost on twitch."]);
    expect(said(await so.onChat(line("!so @Pal", "mod", ["moderator"]), h.ctx))).toEqual(["Go check out PAL at https://twitch.tv/pal! They were last streaming Chess."]);
    expect(h.asked.filter((a) => a.action.type === "shoutout")).toEqual([{ platform: "twitch", action: { type: "shoutout", target_platform_id: "id-pal", target_username: "pal" } }]);
    h.advance(60_000);
    expect(said(await so.onChat(line("!so @other", "mod", ["moderator"]), h.ctx))).toEqual(["Shoutouts are cooling down: try again in 60 s."]);
    h.advance(60_000);
    expect(said(await so.onChat(line("!so pal", "mod", ["moderator"]), h.ctx))).toEqual(["PAL".toLowerCase() + " got a shoutout 2 min ago."]);
    await so.configure("chan-1", { message: "Follow {name}: {url} ({category})" }, h.ctx);
    expect(said(await so.onChat(line("!so other", "mod", ["moderator"]), h.ctx))).toEqual(["Follow OTHER: https://twitch.tv/other (Chess)"]);
    expect((await so.overview("chan-1", h.ctx)).recent.map((r) => [r.login, r.native])).toEqual([["other", "done"], ["pal", "done"]]);
  });
});
