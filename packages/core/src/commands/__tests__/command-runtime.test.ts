import { describe, expect, it } from "vitest";
import { CommandError } from "../command-error.js";
import { CommandRuntime } from "../command-runtime.js";
import { InMemoryKeyValueStore, POINTS_TABLE } from "../key-value-store.js";
import { chatEvent } from "./chat-events.js";

function setup(commands: Parameters<CommandRuntime["setCommands"]>[1]) {
  let now = 1_000_000;
  const store = new InMemoryKeyValueStore();
  const runtime = new CommandRuntime({ store, now: () => now });
  runtime.setCommands("chan-1", commands);
  return {
    runtime,
    store,
    advance: (seconds: number) => {
      now += seconds * 1000;
    },
    text: async (message: string, options?: Parameters<typeof chatEvent>[1]) => (await runtime.handle(chatEvent(message, options)))?.text ?? null,
  };
}

describe("CommandRuntime matching", () => {
  it("answers by name and alias, case-insensitively, and ignores everything else", async () => {
    const { text, runtime } = setup([
      { command: "hello", command_aliases: ["hi", "$"], response: "  Hello there!  ", global_cooldown: 0 },
      { command: "Discord", response: "https://discord.example/abc", global_cooldown: 0 },
    ]);
    expect(await text("!hello")).toBe("Hello there!");
    expect(await text("!HI friend")).toBe("Hello there!");
    expect(await text("!$")).toBe("Hello there!");
    expect(await text("!discord")).toBe("https://discord.example/abc");
    expect(await text("!nope")).toBeNull();
    expect(await text("hello")).toBeNull();
    expect(await text(" !hello")).toBeNull();
    expect(await text("!hello", { channel: "other-channel" })).toBeNull();
    expect(runtime.commands("chan-1").map((c) => c.command)).toEqual(["hello", "Discord"]);
  });

  it("answers by command_regex against the whole message", async () => {
    const { text } = setup([{ command: "dice", response: "rolling", command_regex: "^!d(6|20)\\b", global_cooldown: 0 }]);
    expect(await text("!d20 please")).toBe("rolling");
    expect(await text("!dice")).toBe("rolling");
    expect(await text("!d8")).toBeNull();
  });

  it("builds the outbound action from send_as", async () => {
    const { runtime } = setup([
      { command: "r", response: "replied", send_as: "reply", global_cooldown: 0 },
      { command: "a", response: "announced", send_as: "announce", global_cooldown: 0 },
    ]);
    const event = chatEvent("!r");
    expect(await runtime.handle(event)).toEqual({ channel: event.channel, text: "replied", send_as: "reply", reply_to: event.id });
    expect(await runtime.handle(chatEvent("!a"))).toMatchObject({ text: "announced", send_as: "announce", reply_to: null });
  });

  it("cuts long responses to 500 characters", async () => {
    const { text } = setup([{ command: "long", response: "word ".repeat(300), global_cooldown: 0 }]);
    expect((await text("!long"))?.length).toBeLessThanOrEqual(500);
  });

  it("rejects an invalid command event naming the fields, and skips non-commands without validating", async () => {
    const { runtime } = setup([{ command: "hello", response: "hi" }]);
    const bad = { ...chatEvent("!hello"), timestamp: -5, user: { username: 3 } };
    const error = await runtime.handle(bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandError);
    expect((error as CommandError).code).toBe("OVATION_ERR_COMMANDS_INVALID_EVENT");
    expect((error as CommandError).message).toMatch(/timestamp: .*; user\.platform_id/);
    await expect(runtime.handle({ message: 42 })).rejects.toThrowError(/message/);
    await expect(runtime.handle(null)).rejects.toThrowError(/invalid chat event/);
    expect(await runtime.handle({ message: "just chatting" })).toBeNull();
  });

  it("refuses a command set with every problem listed and keeps the previous set", async () => {
    const { runtime, text } = setup([{ command: "hello", response: "hi", global_cooldown: 0 }]);
    const error = (() => {
      try {
        runtime.setCommands("chan-1", [
          { command: "a", response: "x", command_aliases: ["b"] },
          { command: "b", response: "y" },
          { command: "c", response: "z", price: -3 },
          { command: "d", response: "{{ templated }}" },
        ]);
      } catch (e) {
        return e as CommandError;
      }
      return null;
    })();
    expect(error?.code).toBe("OVATION_ERR_COMMANDS_INVALID_COMMAND");
    expect(error?.details.issues).toEqual([
      "2.price: Too small: expected number to be >=0",
      "3.response: templates need a template renderer, and this runtime has none",
      '"b" is used by both !a and !b',
    ]);
    expect(await text("!hello")).toBe("hi");
  });
});

describe("CommandRuntime permissions and live state", () => {
  it("lets only callers at or above the command's level run it", async () => {
    const { text } = setup([
      { command: "subs", response: "sub only", permissions: "subscriber", global_cooldown: 0 },
      { command: "mods", response: "mod only", permissions: "moderator", global_cooldown: 0 },
      { command: "owner", response: "broadcaster only", permissions: 4, global_cooldown: 0 },
    ]);
    expect(await text("!subs")).toBeNull();
    expect(await text("!subs", { badges: ["subscriber"] })).toBe("sub only");
    expect(await text("!subs", { badges: ["founder"] })).toBe("sub only");
    expect(await text("!subs", { badges: ["vip"] })).toBe("sub only");
    expect(await text("!mods", { badges: ["vip", "subscriber"] })).toBeNull();
    expect(await text("!mods", { badges: ["moderator"] })).toBe("mod only");
    expect(await text("!owner", { badges: ["moderator"] })).toBeNull();
    expect(await text("!owner", { badges: ["broadcaster"] })).toBe("broadcaster only");
    // The channel's own account is the broadcaster even without a badge.
    expect(await text("!owner", { user: "106415581" })).toBe("broadcaster only");
  });

  it("follows enable_when from stream.online / stream.offline", async () => {
    const { runtime, text } = setup([
      { command: "live", response: "we are live", enable_when: "online", global_cooldown: 0 },
      { command: "later", response: "see you", enable_when: "offline", global_cooldown: 0 },
      { command: "always", response: "any time", global_cooldown: 0 },
    ]);
    expect(runtime.isLive("chan-1")).toBe(false);
    expect(await text("!live")).toBeNull();
    expect(await text("!later")).toBe("see you");
    const notification = (type: string) => ({
      subscription: { type, version: "1", condition: { platform: "twitch", platform_id: "106415581" } },
      notification: { id: `n-${type}`, created_at: "2026-11-21T04:30:00.000000Z" },
      event: {},
    });
    runtime.applyNotification("chan-1", notification("stream.online"));
    expect(await text("!live")).toBe("we are live");
    expect(await text("!later")).toBeNull();
    expect(await text("!always")).toBe("any time");
    runtime.applyNotification("chan-1", notification("follow"));
    expect(runtime.isLive("chan-1")).toBe(true);
    runtime.applyNotification("chan-1", notification("stream.offline"));
    expect(await text("!live")).toBeNull();
  });
});

describe("CommandRuntime cooldowns (fake clock)", () => {
  it("applies the global cooldown to everyone but moderators and the broadcaster", async () => {
    const { text, advance } = setup([{ command: "hug", response: "hug!", global_cooldown: 10 }]);
    expect(await text("!hug", { user: "a" })).toBe("hug!");
    expect(await text("!hug", { user: "b" })).toBeNull();
    expect(await text("!hug", { user: "m", badges: ["moderator"] })).toBe("hug!");
    expect(await text("!hug", { user: "106415581" })).toBe("hug!");
    advance(9);
    expect(await text("!hug", { user: "b" })).toBeNull();
    advance(1);
    expect(await text("!hug", { user: "b" })).toBe("hug!");
  });

  it("applies the user cooldown per viewer", async () => {
    const { text, advance } = setup([{ command: "roll", response: "rolled", user_cooldown: 30, global_cooldown: 0 }]);
    expect(await text("!roll", { user: "a" })).toBe("rolled");
    expect(await text("!roll", { user: "a" })).toBeNull();
    expect(await text("!roll", { user: "b" })).toBe("rolled");
    advance(29);
    expect(await text("!roll", { user: "a" })).toBeNull();
    advance(1);
    expect(await text("!roll", { user: "a" })).toBe("rolled");
  });

  it("shares one cooldown between a command's aliases", async () => {
    const { text } = setup([{ command: "hello", command_aliases: ["hi"], response: "hey", global_cooldown: 5 }]);
    expect(await text("!hello")).toBe("hey");
    expect(await text("!hi")).toBeNull();
  });
});

describe("CommandRuntime price", () => {
  it("debits the caller's points and refuses with a message when short", async () => {
    const { text, store, advance } = setup([{ command: "song", response: "song requested", price: 50, global_cooldown: 0 }]);
    expect(await text("!song", { user: "a", username: "alice" })).toBe("@alice !song costs 50 points; you have 0.");
    expect(await text("!song", { user: "a", username: "alice" })).toBeNull();
    await store.update("chan-1", POINTS_TABLE, "a", () => 120);
    expect(await text("!song", { user: "a" })).toBe("song requested");
    expect(await text("!song", { user: "a" })).toBe("song requested");
    expect((await store.table("chan-1", POINTS_TABLE)).a).toBe(20);
    advance(30);
    expect(await text("!song", { user: "a", username: "alice" })).toBe("@alice !song costs 50 points; you have 20.");
    expect((await store.table("chan-1", POINTS_TABLE)).a).toBe(20);
  });

  it("charges moderators too, and never drives a balance negative under concurrent calls", async () => {
    const { runtime, store } = setup([{ command: "song", response: "ok", price: 40, global_cooldown: 0 }]);
    await store.update("chan-1", POINTS_TABLE, "m", () => 100);
    const results = await Promise.all(Array.from({ length: 5 }, () => runtime.handle(chatEvent("!song", { user: "m", badges: ["moderator"] }))));
    expect(results.filter((r) => r?.text === "ok")).toHaveLength(2);
    expect((await store.table("chan-1", POINTS_TABLE)).m).toBe(20);
  });
});

describe("CommandRuntime dry run", () => {
  it("takes the same path without consuming cooldowns or points", async () => {
    const { runtime, store, text } = setup([{ command: "song", response: "song requested", price: 50, global_cooldown: 60 }]);
    await store.update("chan-1", POINTS_TABLE, "a", () => 60);
    const dry = await runtime.dryRun(chatEvent("!song", { user: "a" }));
    expect(dry).toMatchObject({ status: "sent", command: "song", action: { text: "song requested" } });
    expect((await store.table("chan-1", POINTS_TABLE)).a).toBe(60);
    expect(await text("!song", { user: "a" })).toBe("song requested");
    expect(await runtime.dryRun(chatEvent("!song", { user: "b" }))).toEqual({ status: "cooldown", command: "song", scope: "global", remaining_seconds: 60 });
    expect(await runtime.dryRun(chatEvent("hello"))).toEqual({ status: "not_command" });
    expect(await runtime.dryRun(chatEvent("!unknown"))).toEqual({ status: "no_match" });
    expect(await runtime.dryRun(chatEvent("!song", { badges: ["moderator"], user: "poor" }))).toMatchObject({ status: "price", balance: 0 });
  });

  it("tests an unsaved command and reports refusals", async () => {
    const { runtime } = setup([]);
    expect(await runtime.dryRun(chatEvent("!new thing"), { command: { command: "new", response: "fresh" } })).toMatchObject({
      status: "sent",
      action: { text: "fresh" },
    });
    expect(await runtime.dryRun(chatEvent("!new"), { command: { command: "new", response: "x", permissions: "vip" } })).toEqual({
      status: "permission",
      command: "new",
      required: 2,
      caller: 0,
    });
    expect(await runtime.dryRun(chatEvent("!new"), { command: { command: "new", response: "x", enable_when: "online" } })).toMatchObject({
      status: "disabled",
      live: false,
    });
    await expect(runtime.dryRun(chatEvent("!new"), { command: { command: "", response: "x" } })).rejects.toThrowError(/command: must not be empty/);
    await expect(runtime.dryRun({ message: "!x" })).rejects.toThrowError(/invalid chat event/);
  });
});
