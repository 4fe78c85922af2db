import type { ConnectionStatusView } from "./context.js";

const PLATFORM_NAMES: Readonly<Record<string, string>> = { twitch: "Twitch", youtube: "YouTube", kick: "Kick", tiktok: "TikTok" };

/** A platform's display name. */
export const platformName = (platform: string): string => PLATFORM_NAMES[platform] ?? platform;

/** The status of a connection whose platform no plugin of this server serves. */
export function unservedStatus(platform: string): ConnectionStatusView {
  return { state: "unavailable", message: `${platformName(platform)} is not set up on this server; ask its operator`, action: null };
}
