import type { ChatFragment } from "@ovation/core/contracts";
import { tokenFragments } from "@ovation/core/plugin-kit";

// `:shortcode:` emoji (YouTube's own and channel emoji such as `:_hello:`) and `@handle` mentions.
// Unicode emoji stay in text fragments: they are text, and every client draws them.
const TOKENS = /(:[A-Za-z_][A-Za-z0-9_-]{0,63}:)|(?<![\w@])(@[\p{L}\p{N}_.-]{1,100})/gu;

/**
 * Splits YouTube message text into fragments: `emote` for `:shortcode:` emoji (its `platform_id`
 * is the shortcode without colons), `mention` for `@handle`, `text` for the rest.
 */
export function buildFragments(text: string): ChatFragment[] {
  return tokenFragments(text, TOKENS, (match) => {
    const token = match[0];
    if (match[1] !== undefined) return { type: "emote", text: token, data: { platform: "youtube", platform_id: token.slice(1, -1) } };
    return { type: "mention", text: token };
  });
}
