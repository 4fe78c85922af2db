import { chatEventSchema } from "@ovation/core";
import type { ChatChannel } from "@ovation/core";
import { describe, expect, it } from "vitest";
import { GLOBAL_CHEERMOTE_PREFIXES } from "../irc/fragments.js";
import { parseIrcLine, unescapeTag } from "../irc/irc-message.js";
import { normalizeIrcMessage } from "../irc/normalize.js";
import type { IrcOutcome } from "../irc/normalize.js";
import { ircLine } from "./fixtures.js";

const dallas: ChatChannel = { id: "owner-1", platform_id: "12345678", username: "dallas", avatar_url: "" };
const context = {
  channel: (login: string) => (login === "dallas" ? dallas : null),
  cheerPrefixes: new Set(GLOBAL_CHEERMOTE_PREFIXES),
};

function normalize(name: string): IrcOutcome | null {
  const message = parseIrcLine(ircLine(name));
  if (!message) throw new Error(`fixture ${name} does not parse`);
  return normalizeIrcMessage(message, context);
}

function chat(name: string) {
  const outcome = normalize(name);
  const event = outcome?.kind === "chat" || outcome?.kind === "usernotice" ? outcome.event : null;
  if (!event) throw new Error(`fixture ${name} is not chat`);
  // Every chat event the normalizer yields must pass the core schema.
  return chatEventSchema.parse(event);
}

describe("Twitch IRC normalization", () => {
  it("normalizes a PRIVMSG with badges, colour and an emote-only message", () => {
    const event = chat("privmsg");
    expect(event).toMatchObject({
      id: "885196de-cb67-427a-baa8-82f9b0fcd05f",
      type: "message",
      timestamp: 1643904084794,
      platform: "twitch",
      channel: dallas,
      message: "bleedPurple",
      parent: null,
      attributes: { edited: false, accent: null, action: false, highlight: false },
    });
    expect(event.user).toEqual({
      platform_id: "713936733",
      username: "lovingt3s",
      avatar_url: "",
      color: "#0000FF",
      badges: [
        { type: "broadcaster", text: "Broadcaster", id: "broadcaster/1", count: null },
        { type: "moderator", text: "Moderator", id: "moderator/1", count: null },
      ],
    });
    expect(event.fragments).toEqual([{ type: "emote", text: "bleedPurple", data: { platform: "twitch", platform_id: "62835" } }]);
  });

  it("takes subscriber months from badge-info and splits mentions", () => {
    const event = chat("command");
    expect(event.user.badges[0]).toEqual({ type: "subscriber", text: "Subscriber", id: "subscriber/3012", count: 14 });
    expect(event.fragments).toEqual([
      { type: "text", text: "!hug " },
      { type: "mention", text: "@Alice" },
    ]);
  });

  it("cuts emotes at their ranges, counting code points", () => {
    expect(chat("emotes").fragments).toEqual([
      { type: "emote", text: "Kappa", data: { platform: "twitch", platform_id: "25" } },
      { type: "text", text: " " },
      { type: "emote", text: "Keepo", data: { platform: "twitch", platform_id: "1902" } },
      { type: "text", text: " " },
      { type: "emote", text: "Kappa", data: { platform: "twitch", platform_id: "25" } },
      { type: "text", text: " hi" },
    ]);
    expect(chat("emotes-emoji").fragments).toEqual([
      { type: "text", text: "😀😀 " },
      { type: "emote", text: "Kappa", data: { platform: "twitch", platform_id: "25" } },
      { type: "text", text: " ok" },
    ]);
  });

  it("turns cheers into cheermote fragments with bits and tier", () => {
    const event = chat("cheer");
    expect(event.fragments).toEqual([
      { type: "cheermote", text: "Cheer200", data: { platform: "twitch", platform_id: "cheer", bits: 200, tier: 100 } },
      { type: "text", text: " great stream " },
      { type: "cheermote", text: "Kappa50", data: { platform: "twitch", platform_id: "kappa", bits: 50, tier: 1 } },
      { type: "text", text: " " },
      { type: "mention", text: "@dallas" },
    ]);
    expect(event.platform_data).toMatchObject({ bits: 250 });
    expect(event.user.badges[0]).toMatchObject({ type: "bits", count: 1000 });
  });

  it("marks /me actions and highlighted messages", () => {
    const action = chat("action");
    expect(action.message).toBe("waves at chat");
    expect(action.attributes.action).toBe(true);
    expect(chat("highlighted").attributes.highlight).toBe(true);
  });

  it("gives replies their parent", () => {
    expect(chat("reply").parent).toEqual({ id: "b34ccfc7-4977-403a-8a94-33c6bac34fb8", message: "!hug @Alice" });
  });

  it("normalizes announcements with their accent colour", () => {
    const event = chat("announcement");
    expect(event.type).toBe("announcement");
    expect(event.message).toBe("Hello chat, new video is up!");
    expect(event.attributes.accent).toBe("purple");
    expect(event.user.username).toBe("dallas");
  });

  it("maps CLEARMSG and CLEARCHAT to moderation events and ROOMSTATE to the room id", () => {
    expect(normalize("clearmsg")).toEqual({ kind: "moderation", event: { type: "delete-message", channel: dallas, id: "abc-123-def" } });
    expect(normalize("clearchat-user")).toEqual({
      kind: "moderation",
      event: { type: "clear-chat", channel: dallas, user_platform_id: "87654321", duration_seconds: 350 },
    });
    expect(normalize("clearchat-all")).toEqual({ kind: "moderation", event: { type: "clear-chat", channel: dallas, user_platform_id: null } });
    expect(normalize("roomstate")).toEqual({ kind: "room", login: "dallas", roomId: "12345678" });
  });

  it("ignores other channels", () => {
    expect(normalize("other-channel")).toBeNull();
  });

  it("drops hostile emote ranges instead of crashing", () => {
    expect(chat("hostile-emotes").fragments).toEqual([
      { type: "emote", text: "ab", data: { platform: "twitch", platform_id: "4" } },
      { type: "text", text: "cdef" },
    ]);
  });

  it("unescapes IRCv3 tag values", () => {
    expect(unescapeTag("a\\sb\\:c\\\\d\\ne\\")).toBe("a b;c\\d\ne");
  });
});
