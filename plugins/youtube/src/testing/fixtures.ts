import { readFileSync } from "node:fs";

const root = new URL("../../../../fixtures/youtube/", import.meta.url);

function load<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(name, root), "utf8")) as T;
}

/** fixtures/youtube/live-chat-messages.json: one liveChatMessage of every kind, and malformed ones. */
export const chatFixtures = load<{ liveChatId: string; messages: Record<string, Record<string, unknown>>; malformed: Record<string, unknown> }>(
  "live-chat-messages.json",
);
/** fixtures/youtube/api-responses.json: channels, broadcasts, subscriptions and token answers. */
export const apiFixtures = load<Record<string, Record<string, unknown>>>("api-responses.json");
/** fixtures/youtube/errors.json: Google's error bodies (quotaExceeded, liveChatEnded, ...). */
export const errorFixtures = load<Record<string, Record<string, unknown>>>("errors.json");

/** A chat fixture by name (deep copy). */
export function chatMessage(name: string): Record<string, unknown> {
  const m = chatFixtures.messages[name];
  if (m === undefined) throw new Error(`no YouTube chat fixture named ${name}`);
  return structuredClone(m);
}
