import { z } from "zod";
import type { KickApiClient } from "./client.js";
import { apiUserSchema, chatSentSchema, envelope, publicKeySchema, subscribedSchema } from "./wire.js";
import type { KickEventName } from "./wire.js";

/** GET /users: the token's own user. */
export async function getMe(api: KickApiClient): Promise<z.output<typeof apiUserSchema> | null> {
  const answer = await api.call("GET", "/users", "user", envelope(z.array(apiUserSchema)));
  return answer.data[0] ?? null;
}


/** POST /chat: one message (at most 500 characters) in the broadcaster's chat, as the user or the app's bot. */
export async function sendChat(api: KickApiClient, broadcasterId: string, content: string, as: "user" | "bot", replyTo?: string): Promise<z.output<typeof chatSentSchema>> {
  const body = { broadcaster_user_id: Number(broadcasterId), content, type: as, ...(replyTo ? { reply_to_message_id: replyTo } : {}) };
  const answer = await api.call("POST", "/chat", "user", envelope(chatSentSchema), body);
  return answer.data;
}

/** POST /events/subscriptions: subscribes the app to `events` of the broadcaster, delivered by webhook. */
export async function subscribeEvents(api: KickApiClient, broadcasterId: string, events: readonly KickEventName[]): Promise<z.output<typeof subscribedSchema>[]> {
  const body = { broadcaster_user_id: Number(broadcasterId), events: events.map((name) => ({ name, version: 1 })), method: "webhook" };
  const answer = await api.call("POST", "/events/subscriptions", "user", envelope(z.array(subscribedSchema)), body);
  return answer.data;
}

/** GET /public-key: the key Kick signs webhooks with. */
export async function getPublicKey(api: KickApiClient): Promise<string> {
  const answer = await api.call("GET", "/public-key", "app", envelope(publicKeySchema));
  return answer.data.public_key;
}
