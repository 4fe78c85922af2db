/** HookChat's webhook body: a chat message or a follow in a broadcaster's channel. */
export interface HookChatEvent {
  id: string;
  type: "chat" | "follow";
  broadcaster_id: string;
  user: { id: string; name: string };
  /** The message text (chat only). */
  text?: string;
}

/** Header carrying the hex HMAC-SHA256 of the raw body, keyed with the app's client secret. */
export const SIGNATURE_HEADER = "x-hookchat-signature";
