import type { ChatFragment } from "@ovation/core/contracts";

/** Tiers of Twitch's cheermote images, lowest first. */
const CHEER_TIERS = [1, 100, 1000, 5000, 10000] as const;

const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The image address of an emote or cheermote fragment, from its platform id alone (the chat event
 * carries no image URL): Twitch emotes and cheermotes from Twitch's CDN, Kick emotes from Kick's.
 * Null when the platform has no address that follows from the id (YouTube `:shortcode:` emoji,
 * TikTok sticker ids): the fragment is drawn as its text in an emote chip. Ids are checked against a
 * strict pattern, so a hostile id cannot steer the address.
 */
export function emoteImageUrl(fragment: ChatFragment): string | null {
  const data = fragment.data;
  if (!data || !SAFE_ID.test(data.platform_id)) return null;
  if (fragment.type === "cheermote") {
    if (data.platform !== "twitch") return null;
    const bits = data.bits ?? 1;
    const tier = data.tier !== undefined && (CHEER_TIERS as readonly number[]).includes(data.tier) ? data.tier : [...CHEER_TIERS].reverse().find((t) => bits >= t) ?? 1;
    return `https://d3aqoihi2n8ty8.cloudfront.net/actions/${data.platform_id.toLowerCase()}/dark/animated/${tier}/2.gif`;
  }
  if (fragment.type !== "emote") return null;
  if (data.platform === "twitch") return `https://static-cdn.jtvnw.net/emoticons/v2/${data.platform_id}/default/dark/2.0`;
  if (data.platform === "kick") return /^\d+$/.test(data.platform_id) ? `https://files.kick.com/emotes/${data.platform_id}/fullsize` : null;
  return null;
}

/** The emotes of a message, in order (cheermotes included), each with its image address or null. */
export function emotesOf(fragments: readonly ChatFragment[]): Array<{ fragment: ChatFragment; url: string | null }> {
  const out: Array<{ fragment: ChatFragment; url: string | null }> = [];
  for (const fragment of fragments) {
    if (fragment.type === "emote" || fragment.type === "cheermote") out.push({ fragment, url: emoteImageUrl(fragment) });
  }
  return out;
}
