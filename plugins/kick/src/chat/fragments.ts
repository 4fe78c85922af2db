import type { ChatFragment } from "@ovation/core/contracts";

// Kick writes emotes inline as `[emote:<id>:<name>]` (both in webhooks and on the chat socket);
// `@name` is a mention.
const TOKENS = /\[emote:(\d{1,20}):([^\]\s]{1,100})\]|(?<![\w@])(@[\p{L}\p{N}_-]{1,100})/gu;

/**
 * Splits Kick message text into fragments: `emote` for `[emote:id:name]` (text is the emote's
 * name, `data.platform_id` its id), `mention` for `@name`, `text` for the rest.
 */
export function buildFragments(text: string): ChatFragment[] {
  const out: ChatFragment[] = [];
  let last = 0;
  for (const match of text.matchAll(TOKENS)) {
    const at = match.index;
    if (at > last) out.push({ type: "text", text: text.slice(last, at) });
    if (match[1] !== undefined && match[2] !== undefined) out.push({ type: "emote", text: match[2], data: { platform: "kick", platform_id: match[1] } });
    else out.push({ type: "mention", text: match[0] });
    last = at + match[0].length;
  }
  if (last < text.length || out.length === 0) out.push({ type: "text", text: text.slice(last) });
  return out;
}

/** The message with `[emote:id:name]` written as `name`, the way a viewer reads it. */
export function plainText(text: string): string {
  return text.replace(/\[emote:\d{1,20}:([^\]\s]{1,100})\]/g, "$1");
}
