import { readFileSync } from "node:fs";

const root = new URL("../../../../fixtures/kick/", import.meta.url);

function load<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(name, root), "utf8")) as T;
}

/** One recorded-shape webhook: its `Kick-Event-Type`, `Kick-Event-Version` and JSON body. */
export interface WebhookFixture {
  type: string;
  version: string;
  body: Record<string, unknown>;
}

/** How an attack fixture bends a valid delivery. */
export interface AttackFixture {
  event: string;
  description: string;
  signWith?: "untrusted-key";
  ageSeconds?: number;
  repeat?: number;
  replace?: [string, string];
  dropHeader?: string;
}

/** fixtures/kick/webhooks.json: every event kind, malformed ones, and attacks (forged, stale, replay, ...). */
export const webhookFixtures = load<{
  broadcasterUserId: string;
  events: Record<string, WebhookFixture>;
  malformed: Record<string, WebhookFixture>;
  attacks: Record<string, AttackFixture>;
}>("webhooks.json");

/** fixtures/kick/chat-socket.json: Pusher frames of Kick's chat socket. */
export const socketFixtures = load<{ chatroomId: string; frames: Record<string, { event: string; channel: string; data: string }>; malformed: Record<string, { event: string; channel: string; data: string }> }>(
  "chat-socket.json",
);

/** fixtures/kick/api-responses.json: token, users, chat answers and error bodies. */
export const apiFixtures = load<Record<string, Record<string, unknown>>>("api-responses.json");

/** A webhook fixture by name (deep copy), from the events or the malformed ones. */
export function webhookEvent(name: string): WebhookFixture {
  const f = webhookFixtures.events[name] ?? webhookFixtures.malformed[name];
  if (f === undefined) throw new Error(`no Kick webhook fixture named ${name}`);
  return structuredClone(f);
}

/** A chat-socket frame fixture by name (deep copy). */
export function socketFrame(name: string): { event: string; channel: string; data: string } {
  const f = socketFixtures.frames[name] ?? socketFixtures.malformed[name];
  if (f === undefined) throw new Error(`no Kick chat-socket fixture named ${name}`);
  return structuredClone(f);
}
