import { SUBSCRIPTIONS } from "../eventsub/subscriptions.js";

/**
 * The scopes a streamer's Twitch link asks for, each with why: the bot's EventSub subscriptions of
 * the channel are created with the broadcaster's own token, and Twitch only lets that token create
 * them with these scopes. Chat is read and answered by the operator's bot account, which needs no
 * scope from the streamer.
 */
export const TWITCH_BROADCASTER_SCOPE_REASONS: Readonly<Record<string, string>> = {
  "user:read:email": "signing in to Ovation with Twitch (the link flow reads the account and its email)",
  "moderator:read:followers": "follow alerts (EventSub channel.follow v2 needs a moderator's or the broadcaster's token)",
  "channel:read:subscriptions": "subscription, re-subscription and gift alerts (channel.subscribe, channel.subscription.*)",
  "bits:read": "cheer alerts (channel.cheer)",
  "channel:read:hype_train": "hype train alerts (channel.hype_train.begin)",
  "moderator:read:shoutouts": "shoutout alerts (channel.shoutout.create and .receive)",
  "channel:read:redemptions": "channel point reward and redemption alerts (channel.channel_points_*)",
  "channel:read:charity": "charity donation alerts (channel.charity_campaign.donate)",
  "channel:manage:polls": "Twitch's own polls for the bot's polls (Create Poll, End Poll, Get Polls)",
  "moderator:manage:shoutouts": "Twitch's own shoutout for the bot's !so (Send a Shoutout)",
};

/** The scopes a Twitch link asks for (the keys of {@link TWITCH_BROADCASTER_SCOPE_REASONS}). */
export const TWITCH_BROADCASTER_SCOPES: readonly string[] = Object.keys(TWITCH_BROADCASTER_SCOPE_REASONS);

/** The scopes EventSub needs that a token lacks. */
export function missingEventSubScopes(granted: readonly string[]): string[] {
  const needed = new Set(SUBSCRIPTIONS.map((s) => s.scope).filter((s): s is string => s !== null));
  return [...needed].filter((s) => !granted.includes(s));
}
