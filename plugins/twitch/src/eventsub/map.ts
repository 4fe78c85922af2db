import type { NotificationPayload, NotifySub } from "@ovation/core/contracts";
import { toMicrosecondIso } from "@ovation/core/plugin-kit";
import { z } from "zod";
import type { EventSubNotification } from "./wire.js";

const str = z.string();
const nullableStr = z.string().nullable();
const count = z.number().int().nonnegative();

const user = { user_id: str, user_login: str, user_name: str };
const broadcaster = { broadcaster_user_id: str };

/** A notification type and the documented payload built from an EventSub event. */
interface Output {
  type: string;
  data(event: Record<string, unknown>): NotificationPayload;
}

/** The notifications (an alert type of the catalog, and/or a non-alert type) of one EventSub type. */
interface Mapping {
  schema: z.ZodType<Record<string, unknown>>;
  outputs: Output[];
  broadcaster(event: Record<string, unknown>): string;
}

function mapping<S extends z.ZodType<Record<string, unknown>>>(
  type: string,
  schema: S,
  data: (event: z.infer<S>) => NotificationPayload,
  broadcasterOf: (event: z.infer<S>) => string = (event) => String(event.broadcaster_user_id),
): Mapping {
  return {
    schema,
    outputs: [{ type, data: (event) => data(event as z.infer<S>) }],
    broadcaster: (event) => broadcasterOf(event as z.infer<S>),
  };
}

/** A mapping that also emits a second notification of another type (its id gets `-<suffix>`). */
function alsoEmit<S extends z.ZodType<Record<string, unknown>>>(base: Mapping, type: string, _schema: S, data: (event: z.infer<S>) => NotificationPayload): Mapping {
  return { ...base, outputs: [...base.outputs, { type, data: (event) => data(event as z.infer<S>) }] };
}

const redemptionSchema = z.object({
  id: str,
  broadcaster_user_id: str,
  broadcaster_user_login: str,
  broadcaster_user_name: str,
  ...user,
  user_input: z.string(),
  status: str,
  reward: z.object({ id: str, title: str, cost: count, prompt: z.string() }),
});

/** The documented redemption payload (docs/compatibility.md, "Non-alert notifications"): `name` is the viewer's name, `message` the text they entered. */
function redemptionPayload(e: z.infer<typeof redemptionSchema>): Record<string, unknown> {
  return {
    id: e.id,
    name: e.user_name,
    message: e.user_input,
    status: e.status,
    user_id: e.user_id,
    user_login: e.user_login,
    user_name: e.user_name,
    user_input: e.user_input,
    broadcaster_id: e.broadcaster_user_id,
    broadcaster_login: e.broadcaster_user_login,
    broadcaster_name: e.broadcaster_user_name,
    reward_id: e.reward.id,
    reward_title: e.reward.title,
    reward_cost: e.reward.cost,
    reward_prompt: e.reward.prompt,
  };
}

const rewardSchema = z.object({ ...broadcaster, id: str });
const emptyPayload = (): NotificationPayload => [];

const twitchUrl = (login: string): string => `https://twitch.tv/${login}`;

/** EventSub subscription type -> catalog type + parameters (see fixtures/alert-catalog.ae4.json). */
const MAPPINGS: Readonly<Record<string, Mapping>> = {
  "channel.follow": mapping("follow", z.object({ ...broadcaster, ...user }), (e) => ({ name: e.user_name })),
  "channel.subscribe": mapping(
    "subscribe",
    z.object({ ...broadcaster, ...user, tier: str, is_gift: z.boolean() }),
    (e) => ({ name: e.user_name, tier: e.tier, is_gift: e.is_gift }),
  ),
  "channel.subscription.message": mapping(
    "re-subscribe",
    z.object({
      ...broadcaster,
      ...user,
      tier: str,
      message: z.object({
        text: z.string(),
        emotes: z.array(z.object({ begin: count, end: count, id: str })).nullable().optional(),
      }),
      cumulative_months: count,
      streak_months: count.nullable(),
      duration_months: count,
    }),
    (e) => ({
      name: e.user_name,
      tier: e.tier,
      months: e.cumulative_months,
      streak: e.streak_months ?? 0,
      duration: e.duration_months,
      message: e.message.text,
      emotes: e.message.emotes ?? [],
    }),
  ),
  "channel.subscription.gift": mapping(
    "gift-subscribe",
    z.object({
      ...broadcaster,
      user_name: nullableStr,
      total: count,
      tier: str,
      cumulative_total: count.nullable(),
      is_anonymous: z.boolean(),
    }),
    (e) => ({
      gifter: e.is_anonymous || e.user_name === null ? "Anonymous" : e.user_name,
      tier: e.tier,
      amount: e.total,
      cumulative_amount: e.cumulative_total ?? 0,
      is_anonymous: e.is_anonymous,
    }),
  ),
  "channel.cheer": mapping(
    "cheer",
    z.object({ ...broadcaster, user_name: nullableStr, is_anonymous: z.boolean(), message: z.string(), bits: count }),
    (e) => ({
      name: e.is_anonymous || e.user_name === null ? "Anonymous" : e.user_name,
      amount: e.bits,
      message: e.message,
      is_anonymous: e.is_anonymous,
    }),
  ),
  "channel.raid": mapping(
    "raid",
    z.object({ from_broadcaster_user_name: str, to_broadcaster_user_id: str, viewers: count }),
    (e) => ({ name: e.from_broadcaster_user_name, count: e.viewers }),
    (e) => e.to_broadcaster_user_id,
  ),
  "channel.hype_train.begin": mapping("channel.hype_train.begin", z.object({ ...broadcaster, level: count }), (e) => ({
    level: e.level,
  })),
  "channel.shoutout.create": mapping(
    "channel.shoutout.create",
    z.object({ ...broadcaster, to_broadcaster_user_login: str, to_broadcaster_user_name: str }),
    (e) => ({ name: e.to_broadcaster_user_name, url: twitchUrl(e.to_broadcaster_user_login) }),
  ),
  "channel.shoutout.receive": mapping(
    "channel.shoutout.receive",
    z.object({ ...broadcaster, from_broadcaster_user_login: str, from_broadcaster_user_name: str }),
    (e) => ({ name: e.from_broadcaster_user_name, url: twitchUrl(e.from_broadcaster_user_login) }),
  ),
  "channel.channel_points_custom_reward_redemption.add": alsoEmit(
    mapping("channel_points.redemption.add", redemptionSchema, (e) => ({
      name: e.user_name,
      user_input: e.user_input,
      reward_title: e.reward.title,
      reward_cost: e.reward.cost,
    })),
    "channel.channel_points_custom_reward_redemption.add",
    redemptionSchema,
    redemptionPayload,
  ),
  "channel.channel_points_custom_reward_redemption.update": mapping(
    "channel.channel_points_custom_reward_redemption.update",
    redemptionSchema,
    redemptionPayload,
  ),
  "channel.channel_points_custom_reward.add": mapping("channel.channel_points_custom_reward.add", rewardSchema, (e) => ({ id: e.id })),
  "channel.channel_points_custom_reward.update": mapping("channel.channel_points_custom_reward.update", rewardSchema, (e) => ({ id: e.id })),
  "channel.channel_points_custom_reward.remove": mapping("channel.channel_points_custom_reward.remove", rewardSchema, (e) => ({ id: e.id })),
  "channel.charity_campaign.donate": mapping(
    "charity-donation",
    z.object({
      ...broadcaster,
      ...user,
      campaign_id: str,
      charity_name: str,
      charity_description: str,
      charity_logo: str,
      charity_website: str,
      amount: z.object({ value: z.number().int(), decimal_places: z.number().int().min(0).max(8), currency: str }),
    }),
    (e) => ({
      campaign_id: e.campaign_id,
      name: e.user_name,
      charity_name: e.charity_name,
      charity_description: e.charity_description,
      charity_website: e.charity_website,
      charity_logo: e.charity_logo,
      amount: e.amount.value / 10 ** e.amount.decimal_places,
      currency: e.amount.currency,
    }),
  ),
  "stream.online": mapping("stream.online", z.object({ ...broadcaster, type: str, started_at: str }), emptyPayload),
  "stream.offline": mapping("stream.offline", z.object({ ...broadcaster }), emptyPayload),
  "channel.update": mapping(
    "update",
    z.object({ ...broadcaster, title: z.string(), language: str, category_id: z.string(), category_name: z.string() }),
    emptyPayload,
  ),
};

/** EventSub types the plugin maps, in the order they are subscribed. */
export const MAPPED_TYPES: readonly string[] = Object.keys(MAPPINGS);

/** The notifications of one EventSub notification, or why it could not be mapped. */
export type MapResult = { ok: true; notifications: NotifySub[] } | { ok: false; reason: string };

/**
 * Maps an EventSub notification to NotifySub notifications: the documented payload of each type
 * in `event` (an empty list for stream.online/offline and update), the raw Twitch event in
 * `ovation.platform_data`. A redemption gives both the catalog alert `channel_points.redemption.add`
 * (id = the EventSub message id) and the non-alert redemption notification (id + `-redemption`).
 */
export function mapEventSubNotification(notification: EventSubNotification): MapResult {
  const { subscription } = notification;
  const entry = MAPPINGS[subscription.type];
  if (!entry) return { ok: false, reason: `EventSub type ${subscription.type} is not mapped` };
  const parsed = entry.schema.safeParse(notification.event);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `event.${i.path.join(".")}: ${i.message}`).join("; ");
    return { ok: false, reason: `EventSub ${subscription.type} event is malformed: ${issues}` };
  }
  const condition = { platform: "twitch", platform_id: entry.broadcaster(parsed.data) };
  const createdAt = toMicrosecondIso(notification.timestamp);
  const platformData = { type: subscription.type, version: subscription.version, event: notification.event };
  return {
    ok: true,
    notifications: entry.outputs.map((output, index) => ({
      subscription: { type: output.type, version: "1", condition },
      notification: { id: index === 0 ? notification.messageId : `${notification.messageId}-redemption`, created_at: createdAt },
      event: output.data(parsed.data),
      ovation: { template: null, test: false, platform_data: platformData },
    })),
  };
}
