import { z } from "zod";
import type { DataApiClient } from "./client.js";
import { channelListSchema, liveBroadcastListSchema, liveChatMessageListSchema, subscriptionListSchema } from "./wire.js";
import type { LiveBroadcast } from "./wire.js";

/** The channel of the token: id, name and avatar (channels.list `mine=true`, 1 unit). */
export async function getMyChannel(api: DataApiClient): Promise<{ id: string; name: string; avatar: string } | null> {
  const answer = await api.call("channels.list", { verb: "GET", path: "channels", query: { part: "snippet", mine: "true" } }, channelListSchema);
  const channel = answer.items[0];
  if (!channel) return null;
  return { id: channel.id, name: channel.snippet?.title ?? channel.snippet?.customUrl ?? channel.id, avatar: channel.snippet?.thumbnails?.default?.url ?? "" };
}

/** The token owner's live broadcast with a live chat, or null (liveBroadcasts.list `broadcastStatus=active`, 1 unit). */
export async function getActiveBroadcast(api: DataApiClient): Promise<(LiveBroadcast & { snippet: { liveChatId: string } }) | null> {
  const answer = await api.call(
    "liveBroadcasts.list",
    { verb: "GET", path: "liveBroadcasts", query: { part: "id,snippet,status", broadcastStatus: "active", broadcastType: "all", maxResults: "5" } },
    liveBroadcastListSchema,
  );
  for (const b of answer.items) {
    const chatId = b.snippet.liveChatId;
    if (chatId) return { ...b, snippet: { ...b.snippet, liveChatId: chatId } };
  }
  return null;
}

/** One page of a live chat (liveChatMessages.list, 5 units). */
export function listChatMessages(api: DataApiClient, liveChatId: string, pageToken: string | undefined) {
  return api.call(
    "liveChatMessages.list",
    { verb: "GET", path: "liveChat/messages", query: { liveChatId, part: "id,snippet,authorDetails", maxResults: "2000", pageToken } },
    liveChatMessageListSchema,
  );
}

/** Posts a text message to a live chat (liveChatMessages.insert, 20 units). */
export async function insertChatMessage(api: DataApiClient, liveChatId: string, text: string): Promise<string> {
  const answer = await api.call(
    "liveChatMessages.insert",
    {
      verb: "POST",
      path: "liveChat/messages",
      query: { part: "snippet" },
      body: { snippet: { liveChatId, type: "textMessageEvent", textMessageDetails: { messageText: text } } },
    },
    z.object({ id: z.string() }),
  );
  return answer.id;
}

/** Deletes a chat message (liveChatMessages.delete, 50 units; needs owner or moderator). */
export async function deleteChatMessage(api: DataApiClient, messageId: string): Promise<void> {
  await api.call("liveChatMessages.delete", { verb: "DELETE", path: "liveChat/messages", query: { id: messageId } }, z.unknown());
}

/**
 * The newest page of the channel's subscribers (subscriptions.list `myRecentSubscribers=true`,
 * newest first; `mySubscribers` lists them in no particular order; 1 unit).
 */
export function listRecentSubscribers(api: DataApiClient) {
  return api.call(
    "subscriptions.list",
    { verb: "GET", path: "subscriptions", query: { part: "subscriberSnippet", myRecentSubscribers: "true", maxResults: "50" } },
    subscriptionListSchema,
  );
}
