import type { ChatFragment } from "@ovation/core/contracts";
import { tokenFragments } from "@ovation/core/plugin-kit";

// Kick writes emotes inline as `[emote:<id>:<name>]` (both in webhooks and on the chat socket);
// `@name` is a mention.
const TOKENS = /\[emote:(\d{1,20}):([^\]\s]{1,100})\]|(?<![\w@])(@[\p{L}\p{N}_-]{1,100})/gu;

/**
 * Splits Kick message text into fragments: `emote` for `[emote:id:name]` (text is the emote's
 * name, `data.platform_id` its id), `mention` for `@name`, `text` for the rest.
 */
export function buildFragments(text: string): ChatFragment[] {
  return tokenFragments(text, TOKENS, (match) => {
    if (match[1] !== undefined && match[2] !== undefined) return { type: "emote", text: match[2], data: { platform: "kick", platform_id: match[1] } };
    return { type: "mention", text: match[0] };
  });
}

/** The message with `[emote:id:name]` written as `name`, the way a viewer reads it. */
export function plainText(text: string): string {
  return text.replace(/\[emote:\d{1,20}:([^\]\s]{1,100})\]/g, "$1");
}
