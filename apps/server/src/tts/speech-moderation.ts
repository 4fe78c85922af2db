import { matchingWords, stripLinks, wordVariants } from "@ovation/core/commands";
import type { SpeechSettings } from "@ovation/core/overlays";

/** The alert facts read-aloud moderation looks at. */
export interface SpeechCandidate {
  type: string;
  /** The alert's amount (bits, money, months...); 0 when the type has none. */
  amount: number;
  /** Who sent it: display name and platform id, for the block list. */
  name: string;
  userId: string | null;
  message: string;
}

/** What moderation decided: the text to read, or why nothing is read. */
export type SpeechDecision = { read: true; text: string } | { read: false; reason: "type_not_read" | "below_min_amount" | "blocked_viewer" | "empty" };

// Emotes as platforms write them in text: `:shortcode:` (YouTube), `[emote:id:name]` (Kick), `[123]` (TikTok).
const EMOTE_TOKENS = /:[A-Za-z_][A-Za-z0-9_-]{0,63}:|\[emote:\d+:[^\]\s]{1,64}\]|\[\d{1,32}\]/g;
// Twitch emote and cheermote names as words (`Kappa`, `Cheer100`, `PogChamp`) have no marker in text:
// cheermotes are recognised by their shape; other names are read as words.
const CHEERMOTE = /\b[A-Za-z]{2,32}\d{1,6}\b/g;
/** Runs of one character longer than 3 are cut to 3 (`soooooo` -> `sooo`, `!!!!!!` -> `!!!`). */
const REPEATS = /(.)\1{3,}/gsu;

/**
 * Moderates an alert message before it is read: the type must be read and reach its minimum amount,
 * the viewer must not be blocked; then links, emotes and cheermotes are taken out, runs of a repeated
 * character are cut, every word of the auto-moderation word list (in any of the readings auto-moderation
 * uses: folded, look-alike letters, stretched) is dropped, spaces are squeezed and the text is cut to
 * `max_length` at a word boundary.
 */
export function moderateSpeech(candidate: SpeechCandidate, settings: SpeechSettings, blockedWords: readonly string[]): SpeechDecision {
  const rule = settings.types[candidate.type];
  if (!rule) return { read: false, reason: "type_not_read" };
  if (candidate.amount < rule.min_amount) return { read: false, reason: "below_min_amount" };
  const blocked = new Set(settings.blocked_viewers.map((v) => v.toLowerCase()));
  if (blocked.has(candidate.name.toLowerCase()) || (candidate.userId !== null && blocked.has(candidate.userId.toLowerCase()))) {
    return { read: false, reason: "blocked_viewer" };
  }
  const words = new Set(blockedWords.map((w) => w.trim().toLowerCase()).filter((w) => w !== ""));
  let text = stripLinks(candidate.message).replace(EMOTE_TOKENS, " ").replace(CHEERMOTE, " ").replace(REPEATS, "$1$1$1");
  if (words.size > 0) {
    text = text
      .split(/\s+/)
      .filter((token) => !matchingWords(token).some((word) => wordVariants(word).some((variant) => words.has(variant))))
      .join(" ");
  }
  text = text.replace(/\s+/g, " ").trim();
  if (text.length > settings.max_length) {
    const cut = text.slice(0, settings.max_length);
    const space = cut.lastIndexOf(" ");
    text = space > settings.max_length / 2 ? cut.slice(0, space) : cut;
  }
  if (!/[\p{L}\p{N}]/u.test(text)) return { read: false, reason: "empty" };
  return { read: true, text };
}
