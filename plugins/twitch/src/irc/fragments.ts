import type { ChatFragment } from "@ovation/core/contracts";

/** Twitch's global cheermote prefixes (a channel may add its own through the plugin options). */
export const GLOBAL_CHEERMOTE_PREFIXES: readonly string[] = [
  "cheer", "doodlecheer", "biblethump", "cheerwhal", "corgo", "scoops", "uni", "showlove", "party",
  "seemsgood", "pride", "kappa", "frankerz", "heyguys", "dansgame", "elegiggle", "trihard", "kreygasm",
  "4head", "swiftrage", "notlikethis", "failfish", "vohiyo", "pjsalt", "mrdestructoid", "bday",
  "ripcheer", "shamrock", "bitboss", "streamlabs", "muxy", "holidaycheer", "goal", "anon", "charity",
];

/** The cheermote tier (minimum bits of the tier image) for an amount. */
export function cheerTier(bits: number): number {
  if (bits >= 10_000) return 10_000;
  if (bits >= 5_000) return 5_000;
  if (bits >= 1_000) return 1_000;
  if (bits >= 100) return 100;
  return 1;
}

interface EmoteRange {
  id: string;
  start: number;
  end: number;
}

/** Parses the `emotes` tag (`25:0-4,12-16/1902:6-10`); ranges outside `length` or overlapping are dropped. */
export function parseEmotesTag(tag: string, length: number, max = 1000): EmoteRange[] {
  if (tag === "") return [];
  const ranges: EmoteRange[] = [];
  for (const group of tag.split("/")) {
    const colon = group.indexOf(":");
    if (colon <= 0) continue;
    const id = group.slice(0, colon);
    for (const span of group.slice(colon + 1).split(",")) {
      const dash = span.indexOf("-");
      const start = Number(span.slice(0, dash));
      const end = Number(span.slice(dash + 1));
      if (dash <= 0 || !Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start || end >= length) continue;
      ranges.push({ id, start, end });
      if (ranges.length >= max) break;
    }
  }
  ranges.sort((a, b) => a.start - b.start);
  const kept: EmoteRange[] = [];
  let lastEnd = -1;
  for (const range of ranges) {
    if (range.start <= lastEnd) continue;
    kept.push(range);
    lastEnd = range.end;
  }
  return kept;
}

const WORD = /\S+/g;
const MENTION = /^@([A-Za-z0-9_]{1,25})([^A-Za-z0-9_]*)$/;
const CHEER = /^(.+?)(\d{1,7})$/;

function pushText(out: ChatFragment[], text: string): void {
  if (text === "") return;
  const last = out[out.length - 1];
  if (last && last.type === "text") last.text += text;
  else out.push({ type: "text", text });
}

/** Splits plain text into text, mention and (when bits were cheered) cheermote fragments. */
function splitText(out: ChatFragment[], text: string, cheerPrefixes: ReadonlySet<string> | null): void {
  if (!text.includes("@") && cheerPrefixes === null) {
    pushText(out, text);
    return;
  }
  let cursor = 0;
  WORD.lastIndex = 0;
  for (let match = WORD.exec(text); match !== null; match = WORD.exec(text)) {
    const word = match[0];
    const mention = word.charCodeAt(0) === 64 ? MENTION.exec(word) : null;
    if (mention) {
      pushText(out, text.slice(cursor, match.index));
      out.push({ type: "mention", text: `@${mention[1] ?? ""}` });
      cursor = match.index + 1 + (mention[1]?.length ?? 0);
      continue;
    }
    if (cheerPrefixes !== null) {
      const cheer = CHEER.exec(word);
      if (cheer && cheerPrefixes.has((cheer[1] ?? "").toLowerCase())) {
        const bits = Number(cheer[2]);
        pushText(out, text.slice(cursor, match.index));
        out.push({ type: "cheermote", text: word, data: { platform: "twitch", platform_id: (cheer[1] ?? "").toLowerCase(), bits, tier: cheerTier(bits) } });
        cursor = match.index + word.length;
      }
    }
  }
  pushText(out, text.slice(cursor));
}

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Builds the fragments of a Twitch message: emotes from the `emotes` tag (positions count code
 * points, as Twitch counts them), cheermotes when the message carries bits, mentions, and text.
 */
export function buildFragments(
  message: string,
  emotesTag: string,
  cheerPrefixes: ReadonlySet<string> | null,
): ChatFragment[] {
  const out: ChatFragment[] = [];
  if (message === "") return out;
  if (emotesTag === "") {
    splitText(out, message, cheerPrefixes);
    return out;
  }
  // Map code point positions to UTF-16 offsets only when the message has astral characters.
  const points = SURROGATE.test(message) ? Array.from(message) : null;
  const length = points ? points.length : message.length;
  let offsets: number[] | null = null;
  if (points) {
    offsets = [0];
    for (const point of points) offsets.push((offsets[offsets.length - 1] ?? 0) + point.length);
  }
  const offset = (index: number): number => (offsets ? (offsets[index] ?? message.length) : index);
  let cursor = 0;
  for (const range of parseEmotesTag(emotesTag, length)) {
    const start = offset(range.start);
    const end = offset(range.end + 1);
    splitText(out, message.slice(cursor, start), cheerPrefixes);
    out.push({ type: "emote", text: message.slice(start, end), data: { platform: "twitch", platform_id: range.id } });
    cursor = end;
  }
  splitText(out, message.slice(cursor), cheerPrefixes);
  return out;
}
