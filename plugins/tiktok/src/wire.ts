import { z } from "zod";

/**
 * The raw TikTok LIVE messages as `tiktok-live-connector` hands them over after its protobuf
 * decoding (tiktok-live-proto v3 field names). Only the fields the plugin maps are checked; the
 * rest passes through. Anything that fails these schemas is counted as malformed, never thrown.
 */
const image = z.object({ urlList: z.array(z.string()).default([]) }).partial().optional();

/** common: the id TikTok gives every message (the dedupe key) and its creation time (ms, as a string). */
export const commonSchema = z.object({
  msgId: z.string().regex(/^\d+$/, "must be a numeric message id"),
  createTime: z.string().optional(),
});

/** A TikTok user as it appears in messages. */
export const tiktokUserSchema = z.object({
  id: z.string().min(1),
  nickname: z.string().default(""),
  uniqueId: z.string().optional(),
  displayId: z.string().optional(),
  avatarThumb: image,
  userAttr: z.object({ isAdmin: z.boolean().optional(), isSuperAdmin: z.boolean().optional() }).optional(),
  isFollower: z.boolean().optional(),
  isSubscribe: z.boolean().optional(),
});

/** What TikTok says about the sender relative to the streamer. */
export const userIdentitySchema = z
  .object({
    isGiftGiverOfAnchor: z.boolean(),
    isSubscriberOfAnchor: z.boolean(),
    isFollowerOfAnchor: z.boolean(),
    isModeratorOfAnchor: z.boolean(),
    isAnchor: z.boolean(),
  })
  .partial();

/** WebcastChatMessage: a comment. */
export const chatMessageSchema = z.object({
  common: commonSchema,
  user: tiktokUserSchema,
  content: z.string(),
  emotes: z
    .array(z.object({ index: z.number().int().nonnegative(), emote: z.object({ emoteId: z.string(), image }).optional() }))
    .default([]),
  userIdentity: userIdentitySchema.optional(),
});

/** WebcastEmoteChatMessage: a sticker-only message. */
export const emoteChatMessageSchema = z.object({
  common: commonSchema,
  user: tiktokUserSchema,
  emoteList: z.array(z.object({ emoteId: z.string(), image })).default([]),
  userIdentity: userIdentitySchema.optional(),
});

/** WebcastGiftMessage: one gift, or one step of a streak (`repeatEnd` 1 closes it). */
export const giftMessageSchema = z.object({
  common: commonSchema,
  user: tiktokUserSchema,
  giftId: z.string(),
  groupId: z.string().default(""),
  repeatCount: z.number().int().nonnegative(),
  repeatEnd: z.number().int(),
  gift: z.object({ name: z.string(), diamondCount: z.number().int().nonnegative(), type: z.number().int(), combo: z.boolean().optional() }),
});

/** WebcastSocialMessage: a follow or a share (told apart by `common.displayText.key`). */
export const socialMessageSchema = z.object({
  common: commonSchema.extend({ displayText: z.object({ key: z.string() }).optional() }),
  user: tiktokUserSchema,
  shareTarget: z.string().optional(),
});

/** WebcastLikeMessage: `count` taps just now, `total` for the room. */
export const likeMessageSchema = z.object({
  common: commonSchema,
  user: tiktokUserSchema,
  count: z.number().int().nonnegative(),
  total: z.string().optional(),
});

/** WebcastSubNotifyMessage: a new subscription or a renewal. */
export const subNotifyMessageSchema = z.object({
  common: commonSchema,
  user: tiktokUserSchema,
  subMonth: z.string().optional(),
});

/** WebcastImDeleteMessage: comments removed by a moderator, by message id or by sender. */
export const imDeleteMessageSchema = z.object({
  common: commonSchema,
  deleteMsgIds: z.array(z.string().regex(/^\d+$/)).default([]),
  deleteUserIds: z.array(z.string().regex(/^\d+$/)).default([]),
});

/** WebcastControlMessage: `action` 3 ended, 4 suspended. */
export const controlMessageSchema = z.object({ common: commonSchema, action: z.number().int() });

/** The room info (`webcast/room/info/`): `data.status` 2 live, 4 ended. */
export const roomInfoSchema = z.object({
  data: z
    .object({
      status: z.number().int(),
      title: z.string(),
      create_time: z.number(),
      owner: z.object({ id_str: z.string().regex(/^\d+$/), avatar_thumb: z.object({ url_list: z.array(z.string()) }).partial() }).partial(),
    })
    .partial(),
});

export type TikTokUser = z.output<typeof tiktokUserSchema>;
export type UserIdentity = z.output<typeof userIdentitySchema>;
export type TikTokChatMessage = z.output<typeof chatMessageSchema>;
export type TikTokGiftMessage = z.output<typeof giftMessageSchema>;
export type TikTokLikeMessage = z.output<typeof likeMessageSchema>;
