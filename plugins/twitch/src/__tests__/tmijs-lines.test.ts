import { readFileSync } from "node:fs";
import { chatEventSchema, permissionLevelOf } from "@ovation/core";
import type { ChatChannel, ChatEvent } from "@ovation/core";
import { describe, expect, it } from "vitest";
import { mapEventSubNotification } from "../eventsub/map.js";
import { GLOBAL_CHEERMOTE_PREFIXES } from "../irc/fragments.js";
import { parseIrcLine } from "../irc/irc-message.js";
import { normalizeIrcMessage } from "../irc/normalize.js";
import type { IrcOutcome } from "../irc/normalize.js";

/**
 * The IRC lines of tmi.js's own event tests (fixtures/twitch/tmijs-lines.json), each with what
 * Ovation makes of it. tmi.js emits an event for every line; Ovation keeps what a chat bot and the
 * alert engine use (chat, moderation, subs, raids) and ignores the rest (NOTICE, JOIN, PING...).
 */
const { lines } = JSON.parse(readFileSync(new URL("../../../../fixtures/twitch/tmijs-lines.json", import.meta.url), "utf8")) as {
  lines: Array<{ event: string; line: string }>;
};

const served = ["schmoopiie", "alca", "channel", "channelname"];
const channels = new Map<string, ChatChannel>(served.map((login) => [login, { id: `owner-${login}`, platform_id: "", username: login, avatar_url: "" }]));
const context = { channel: (login: string) => channels.get(login) ?? null, cheerPrefixes: new Set(GLOBAL_CHEERMOTE_PREFIXES) };

function outcome(index: number): IrcOutcome | null {
  const entry = lines[index];
  if (!entry) throw new Error(`no tmi.js line ${index}`);
  const message = parseIrcLine(entry.line);
  if (!message) throw new Error(`tmi.js line ${index} (${entry.event}) does not parse`);
  return normalizeIrcMessage(message, context);
}

function chat(index: number): ChatEvent {
  const result = outcome(index);
  const event = result?.kind === "chat" || result?.kind === "usernotice" ? result.event : null;
  if (!event) throw new Error(`tmi.js line ${index} gave no chat event`);
  return chatEventSchema.parse(event);
}

function notifications(index: number) {
  const result = outcome(index);
  if (result?.kind !== "usernotice") return [];
  return result.notifications.flatMap((n) => {
    const mapped = mapEventSubNotification(n);
    if (!mapped.ok) throw new Error(mapped.reason);
    return mapped.notifications.map((m) => [m.subscription.type, m.event] as const);
  });
}

const index = (event: string, nth = 0): number => {
  const found = lines.map((l, i) => (l.event === event ? i : -1)).filter((i) => i >= 0)[nth];
  if (found === undefined) throw new Error(`no tmi.js ${event} line #${nth}`);
  return found;
};

describe("tmi.js's own test lines", () => {
  it("holds all 43 lines of tmi.js test/events.js", () => {
    expect(lines).toHaveLength(43);
  });

  it("never throws, and ignores what is not chat, moderation, a sub or a raid", () => {
    const ignored = ["automod", "connected", "emotesets", "globaluserstate", "hosted", "hosting", "join", "mod", "mods", "part", "ping", "pong", "r9kbeta", "slowmode", "subscribers", "unhost", "unmod", "whisper", "roomstate", "giftpaidupgrade", "anongiftpaidupgrade", "primepaidupgrade"];
    for (const [i, entry] of lines.entries()) {
      const result = outcome(i);
      if (ignored.includes(entry.event)) expect(result, `${entry.event} (line ${i})`).toBeNull();
      else expect(result, `${entry.event} (line ${i})`).not.toBeNull();
    }
  });

  it("accepts lines without an id tag (/me, cheers) with a stable derived id", () => {
    const action = chat(index("action"));
    expect(action).toMatchObject({ message: "Hello :)", attributes: { action: true } });
    expect(action.id).toMatch(/^irc-[A-Za-z0-9_-]{22}$/);
    expect(chat(index("action")).id).toBe(action.id);
    const cheer = chat(index("cheer"));
    const cheerAction = chat(index("cheer", 1));
    expect(cheer.platform_data).toMatchObject({ bits: 100 });
    expect(cheerAction).toMatchObject({ message: "cheer100 Hello :)", attributes: { action: true }, platform_data: { bits: 100 } });
    expect(new Set([action.id, cheer.id, cheerAction.id]).size).toBe(3);
  });

  it("gives moderators by tag (mod=1, user-type=mod) the moderator badge and level", () => {
    const redeem = chat(index("redeem"));
    expect(redeem.user.badges).toEqual([{ type: "moderator", text: "Moderator", id: "moderator/1", count: null }]);
    expect(permissionLevelOf(redeem)).toBe(3);
    expect(permissionLevelOf(chat(index("redeem", 1)))).toBe(0);
    expect(chat(index("redeem", 2))).toMatchObject({ attributes: { highlight: true } });
    expect(permissionLevelOf(chat(index("redeem", 2)))).toBe(3);
  });

  it("carries custom-reward-id and msg-id", () => {
    expect(chat(index("redeem")).platform_data).toMatchObject({ custom_reward_id: "27c8e486-a386-40cc-9a4b-dbb5cf01e439" });
    expect(chat(index("redeem", 1)).platform_data).toMatchObject({ msg_id: "skip-subs-mode-message" });
  });

  it("tells a timeout (ban-duration) from a ban, and both from a whole-chat clear", () => {
    expect(outcome(index("timeout"))).toMatchObject({ kind: "moderation", event: { type: "clear-chat", user_platform_id: "20624989", duration_seconds: 60 } });
    expect(outcome(index("ban"))).toMatchObject({ kind: "moderation", event: { type: "clear-chat", user_platform_id: "20624989", duration_seconds: null } });
    expect(outcome(index("clearchat"))).toMatchObject({ kind: "moderation", event: { type: "clear-chat", user_platform_id: null } });
  });

  it("turns sub, resub and raid USERNOTICEs into the notifications EventSub would give, and their messages into chat", () => {
    expect(notifications(index("subscription"))).toEqual([["subscribe", { name: "Schmoopiie", tier: "1000", is_gift: false }]]);
    expect(chat(index("subscription"))).toMatchObject({ type: "message", message: "Great stream -- keep it up!" });
    expect(notifications(index("resub"))).toEqual([
      ["re-subscribe", { name: "Schmoopiie", tier: "1000", months: 7, streak: 6, duration: 1, message: "Great stream -- keep it up!", emotes: [] }],
    ]);
    expect(notifications(index("subanniversary"))[0]?.[1]).toMatchObject({ months: 7, streak: 0 });
    expect(chat(index("resub"))).toMatchObject({ id: "00000000-0000-0000-0000-000000000000", type: "message", message: "Great stream -- keep it up!" });
    expect(notifications(index("raided"))).toEqual([["raid", { name: "Raider", count: 6 }]]);
  });

  it("reads the regular chat line as tmi.js does", () => {
    const event = chat(index("chat"));
    expect(event).toMatchObject({ id: "c5ddcb05-85ae-4a60-91bc-7704c7031257", message: "Hi :)", user: { username: "Alca", color: "#177DE3" } });
    expect(event.user.badges.map((b) => b.type)).toEqual(["broadcaster", "subscriber", "overwatch-league-insider_2019A"]);
  });
});
