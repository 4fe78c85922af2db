import type { ChatFragment } from "../chat/event.js";

/**
 * Splits message text into chat fragments around the matches of `tokens` (a global regex):
 * `fragmentOf` turns each match into its fragment (an emote, a mention...), the text between
 * matches becomes `text` fragments. A message with no text gives one empty `text` fragment, so
 * a chat event always has at least one.
 */
export function tokenFragments(text: string, tokens: RegExp, fragmentOf: (match: RegExpExecArray) => ChatFragment): ChatFragment[] {
  const out: ChatFragment[] = [];
  let last = 0;
  for (const match of text.matchAll(tokens)) {
    const at = match.index;
    if (at > last) out.push({ type: "text", text: text.slice(last, at) });
    out.push(fragmentOf(match));
    last = at + match[0].length;
  }
  if (last < text.length || out.length === 0) out.push({ type: "text", text: text.slice(last) });
  return out;
}
