import { randomUUID } from "node:crypto";
import type { ChatBadge, ChatChannel, ChatEvent, ChatFragment } from "@ovation/core/contracts";
import type { ConsoleBadge } from "./protocol.js";

/** Who is typing in a console session. */
export interface ConsoleSpeaker {
  /** The name shown in chat. */
  name: string;
  /** True when the channel owner speaks (the bot treats them as the broadcaster). */
  owner: boolean;
  badges: readonly ConsoleBadge[];
}

const TITLES: Record<ConsoleBadge, string> = {
  moderator: "Moderator",
  vip: "VIP",
  subscriber: "Subscriber",
  broadcaster: "Broadcaster",
};

/** Splits a typed line into text and mention fragments. */
export function consoleFragments(text: string): ChatFragment[] {
  const fragments: ChatFragment[] = [];
  let cursor = 0;
  for (const match of text.matchAll(/(^|\s)(@[A-Za-z0-9_]{1,25})/g)) {
    const start = (match.index ?? 0) + (match[1]?.length ?? 0);
    if (start > cursor) fragments.push({ type: "text", text: text.slice(cursor, start) });
    fragments.push({ type: "mention", text: match[2] ?? "" });
    cursor = start + (match[2]?.length ?? 0);
  }
  if (cursor < text.length) fragments.push({ type: "text", text: text.slice(cursor) });
  return fragments;
}

/** The chat event of one typed line on the console platform (`ovation`). */
export function consoleChatEvent(channel: ChatChannel, speaker: ConsoleSpeaker, text: string, now = Date.now()): ChatEvent {
  const badges: ChatBadge[] = [];
  const wanted = new Set<ConsoleBadge>(speaker.owner ? ["broadcaster", ...speaker.badges] : speaker.badges);
  for (const badge of wanted) badges.push({ type: badge, text: TITLES[badge], id: `${badge}/1`, count: badge === "subscriber" ? 1 : null });
  return {
    id: randomUUID(),
    type: "message",
    timestamp: now,
    platform: "ovation",
    user: {
      platform_id: speaker.owner ? channel.platform_id : `console-${speaker.name.toLowerCase()}`,
      username: speaker.name,
      avatar_url: "",
      color: null,
      badges,
    },
    channel,
    message: text,
    fragments: consoleFragments(text),
    parent: null,
    attributes: { edited: false, accent: null, action: false, highlight: false },
    platform_data: { console: true },
  };
}
