import { describe, expect, it } from "vitest";
import { chatEvent } from "../../__tests__/chat-events.js";
import { InMemoryKeyValueStore } from "../../key-value-store.js";
import { CommandRuntime } from "../../command-runtime.js";
import { TimerModule } from "../timers/timer-module.js";

function setup() {
  let now = 1_000_000;
  const runtime = new CommandRuntime({ store: new InMemoryKeyValueStore(), now: () => now });
  const timers = new TimerModule({ templates: runtime, isLive: (c) => runtime.isLive(c), now: () => now });
  return { runtime, timers, advance: (ms: number) => (now += ms) };
}

function onPlatform(message: string, platform: string, user = "viewer-1") {
  return { ...chatEvent(message, { user }), platform };
}

describe("TimerModule", () => {
  it("posts every interval only while live and with enough chat since the last post", async () => {
    const { runtime, timers, advance } = setup();
    timers.setTimers("chan-1", [{ name: "socials", message: "Follow on socials!", interval_minutes: 10, min_chat_lines: 3 }]);
    for (let i = 0; i < 5; i++) timers.recordChat(chatEvent(`hi ${i}`));
    advance(10 * 60_000);
    expect((await timers.tick()).posts).toEqual([]); // offline
    runtime.setLive("chan-1", true);
    const first = await timers.tick();
    expect(first.posts.map((p) => [p.timer, p.platform, p.message.text, p.message.send_as])).toEqual([["socials", "twitch", "Follow on socials!", "say"]]);
    expect(first.posts[0]?.message.channel.id).toBe("chan-1");
    advance(10 * 60_000);
    timers.recordChat(chatEvent("one"));
    timers.recordChat(chatEvent("two"));
    expect((await timers.tick()).posts).toEqual([]); // only 2 lines since the last post
    timers.recordChat(chatEvent("three"));
    expect((await timers.tick()).posts).toHaveLength(1);
    timers.recordChat(chatEvent("a"));
    timers.recordChat(chatEvent("b"));
    timers.recordChat(chatEvent("c"));
    advance(9 * 60_000);
    expect((await timers.tick()).posts).toEqual([]); // interval not over
  });

  it("counts chat per platform and honours the platform list", async () => {
    const { runtime, timers, advance } = setup();
    runtime.setLive("chan-1", true);
    timers.setTimers("chan-1", [
      { name: "all", message: "everywhere", interval_minutes: 1, min_chat_lines: 2 },
      { name: "yt", message: "youtube only", interval_minutes: 1, min_chat_lines: 1, platforms: ["YouTube"] },
    ]);
    timers.recordChat(onPlatform("a", "twitch"));
    timers.recordChat(onPlatform("b", "twitch"));
    timers.recordChat(onPlatform("c", "youtube"));
    advance(60_000);
    const posts = (await timers.tick()).posts.map((p) => `${p.timer}@${p.platform}`).sort();
    expect(posts).toEqual(["all@twitch", "yt@youtube"]);
  });

  it("keeps counts of a timer whose name stays when timers are replaced, and refuses bad timers", () => {
    const { timers } = setup();
    timers.setTimers("chan-1", [{ name: "a", message: "x", min_chat_lines: 10 }]);
    timers.recordChat(chatEvent("1"));
    timers.setTimers("chan-1", [{ name: "A", message: "y", min_chat_lines: 10 }]);
    expect(timers.status("chan-1")[0]?.platforms[0]?.lines).toBe(1);
    expect(() => timers.setTimers("chan-1", [{ name: "a", message: "x", interval_minutes: 0 }])).toThrow(/interval_minutes/);
    expect(() => timers.setTimers("chan-1", [{ name: "a", message: "x" }, { name: "A", message: "y" }])).toThrow(/two timers are named/);
    expect(() => timers.prepare({ name: "t", message: "{{ oops" })).toThrow(/message: templates need a template renderer/);
  });
});
