import type { ChatBadge } from "@ovation/core/contracts";

const TITLES: Readonly<Record<string, string>> = {
  broadcaster: "Broadcaster",
  moderator: "Moderator",
  vip: "VIP",
  subscriber: "Subscriber",
  founder: "Founder",
  partner: "Verified",
  staff: "Staff",
  admin: "Admin",
  global_mod: "Global Moderator",
  premium: "Prime Gaming",
  turbo: "Turbo",
  bits: "Cheer",
  "sub-gifter": "Sub Gifter",
  artist: "Artist",
  "no_audio": "Watching without audio",
  "no_video": "Listening only",
};

// Badges whose version is itself a count (bits cheered, subs gifted).
const VERSION_IS_COUNT = new Set(["bits", "sub-gifter", "bits-leader", "sub-gift-leader"]);

function toInt(value: string | undefined): number | null {
  if (value === undefined || !/^\d{1,9}$/.test(value)) return null;
  return Number(value);
}

/** The version of `set` in a `set/version,set/version` tag, without building a map. */
function versionIn(tag: string, set: string): string | undefined {
  const key = `${set}/`;
  const at = tag.startsWith(key) ? 0 : tag.indexOf(`,${key}`) + 1;
  if (at === 0 && !tag.startsWith(key)) return undefined;
  const from = at + key.length;
  const comma = tag.indexOf(",", from);
  return tag.slice(from, comma === -1 ? undefined : comma);
}

/**
 * Normalizes the `badges` and `badge-info` tags (`subscriber/3012,premium/1` + `subscriber/14`):
 * `type` is the badge set, `id` is `set/version`, `count` the subscribed months (subscriber,
 * founder, from badge-info) or the amount (bits, sub-gifter).
 */
export function normalizeBadges(badgesTag: string, badgeInfoTag: string, max = 100): ChatBadge[] {
  if (badgesTag === "") return [];
  const out: ChatBadge[] = [];
  for (const item of badgesTag.split(",")) {
    if (out.length >= max) break;
    const slash = item.indexOf("/");
    if (slash <= 0) continue;
    const set = item.slice(0, slash);
    const version = item.slice(slash + 1);
    let count: number | null = null;
    if (set === "subscriber" || set === "founder") count = badgeInfoTag === "" ? null : toInt(versionIn(badgeInfoTag, set));
    else if (VERSION_IS_COUNT.has(set)) count = toInt(version);
    out.push({ type: set.slice(0, 256), text: TITLES[set] ?? null, id: item.slice(0, 256), count });
  }
  return out;
}
