/** One EventSub subscription the plugin creates for a channel. */
export interface SubscriptionSpec {
  type: string;
  version: string;
  /** The condition for a broadcaster; `moderatorId` is the token's user (the bot or the broadcaster). */
  condition(broadcasterId: string, moderatorId: string): Record<string, string>;
  /** The OAuth scope Twitch requires, named in the error when it is missing. */
  scope: string | null;
}

const broadcaster = (b: string): Record<string, string> => ({ broadcaster_user_id: b });
const moderated = (b: string, m: string): Record<string, string> => ({ broadcaster_user_id: b, moderator_user_id: m });

/** Every subscription the plugin creates per channel, with the scope each needs. */
export const SUBSCRIPTIONS: readonly SubscriptionSpec[] = [
  { type: "channel.follow", version: "2", condition: moderated, scope: "moderator:read:followers" },
  { type: "channel.subscribe", version: "1", condition: broadcaster, scope: "channel:read:subscriptions" },
  { type: "channel.subscription.message", version: "1", condition: broadcaster, scope: "channel:read:subscriptions" },
  { type: "channel.subscription.gift", version: "1", condition: broadcaster, scope: "channel:read:subscriptions" },
  { type: "channel.cheer", version: "1", condition: broadcaster, scope: "bits:read" },
  { type: "channel.raid", version: "1", condition: (b) => ({ to_broadcaster_user_id: b }), scope: null },
  { type: "channel.hype_train.begin", version: "2", condition: broadcaster, scope: "channel:read:hype_train" },
  { type: "channel.shoutout.create", version: "1", condition: moderated, scope: "moderator:read:shoutouts" },
  { type: "channel.shoutout.receive", version: "1", condition: moderated, scope: "moderator:read:shoutouts" },
  {
    type: "channel.channel_points_custom_reward_redemption.add",
    version: "1",
    condition: broadcaster,
    scope: "channel:read:redemptions",
  },
  {
    type: "channel.channel_points_custom_reward_redemption.update",
    version: "1",
    condition: broadcaster,
    scope: "channel:read:redemptions",
  },
  { type: "channel.channel_points_custom_reward.add", version: "1", condition: broadcaster, scope: "channel:read:redemptions" },
  { type: "channel.channel_points_custom_reward.update", version: "1", condition: broadcaster, scope: "channel:read:redemptions" },
  { type: "channel.channel_points_custom_reward.remove", version: "1", condition: broadcaster, scope: "channel:read:redemptions" },
  { type: "channel.charity_campaign.donate", version: "1", condition: broadcaster, scope: "channel:read:charity" },
  { type: "stream.online", version: "1", condition: broadcaster, scope: null },
  { type: "stream.offline", version: "1", condition: broadcaster, scope: null },
  { type: "channel.update", version: "2", condition: broadcaster, scope: null },
];
