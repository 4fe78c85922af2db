/**
 * A platform's own actions the bot modules may ask a plugin for (Twitch shoutouts and polls), and
 * how they went. Plugins offer them through the optional `platformActions` part of the contract.
 */

export type PlatformAction =
  | { type: "shoutout"; target_platform_id: string; target_username: string }
  | { type: "channel_info"; username: string }
  | { type: "poll_start"; title: string; choices: readonly string[]; duration_seconds: number }
  | { type: "poll_end"; poll_id: string }
  | { type: "poll_results"; poll_id: string };

/** How a platform action went: `unavailable` when the plugin (or its token) cannot take it. */
export type PlatformActionResult =
  | { result: "done"; data?: Readonly<Record<string, unknown>> }
  | { result: "unavailable"; reason: string }
  | { result: "failed"; error: string };
