import type { ChatBadge, ChatEvent } from "../../chat/event.js";

let counter = 0;

/** A valid chat event in channel `chan-1` (Twitch) from viewer `viewer-1` unless overridden. */
export function chatEvent(message: string, options: { user?: string; username?: string; badges?: string[]; channel?: string } = {}): ChatEvent {
  counter++;
  const badges: ChatBadge[] = (options.badges ?? []).map((type) => ({ type, text: null, id: `${type}/1`, count: type === "subscriber" ? 1 : null }));
  return {
    id: `msg-${counter}`,
    type: "message",
    timestamp: 1_700_000_000_000 + counter,
    platform: "twitch",
    user: { platform_id: options.user ?? "viewer-1", username: options.username ?? "alice", avatar_url: "https://example.com/a.png", color: "#ff0000", badges },
    channel: { id: options.channel ?? "chan-1", platform_id: "106415581", username: "streamer", avatar_url: "https://example.com/s.png" },
    message,
    fragments: [{ type: "text", text: message }],
    parent: null,
    attributes: { edited: false, accent: null, action: false, highlight: false },
  };
}
