import { z } from "zod";

// Raw shapes of the YouTube Data API v3 as Google sends them (only the fields the plugin reads are
// required; everything else passes through). Kept apart from the mapping so a shape change is one edit.

const str = z.string();
const micros = z.union([z.string().regex(/^\d{1,18}$/), z.number().int().nonnegative()]);

/** `authorDetails` of a liveChatMessage. */
export const authorDetailsSchema = z.object({
  channelId: str,
  channelUrl: str.optional(),
  displayName: str,
  profileImageUrl: str.optional(),
  isVerified: z.boolean().optional(),
  isChatOwner: z.boolean().optional(),
  isChatSponsor: z.boolean().optional(),
  isChatModerator: z.boolean().optional(),
});

/** `snippet` of a liveChatMessage; the `*Details` object present depends on `type`. */
export const liveChatSnippetSchema = z.object({
  type: str,
  liveChatId: str.optional(),
  authorChannelId: str.optional(),
  publishedAt: str,
  hasDisplayContent: z.boolean().optional(),
  displayMessage: str.optional(),
  textMessageDetails: z.object({ messageText: str }).optional(),
  messageDeletedDetails: z.object({ deletedMessageId: str }).optional(),
  userBannedDetails: z
    .object({
      bannedUserDetails: z.object({ channelId: str, displayName: str.optional() }),
      banType: str,
      banDurationSeconds: micros.optional(),
    })
    .optional(),
  memberMilestoneChatDetails: z.object({ userComment: str.optional(), memberMonth: z.number().int().nonnegative(), memberLevelName: str.optional() }).optional(),
  newSponsorDetails: z.object({ memberLevelName: str.optional(), isUpgrade: z.boolean().optional() }).optional(),
  superChatDetails: z
    .object({ amountMicros: micros, currency: str, amountDisplayString: str.optional(), userComment: str.optional(), tier: z.number().int().nonnegative() })
    .optional(),
  superStickerDetails: z
    .object({
      superStickerMetadata: z.object({ stickerId: str, altText: str.optional(), language: str.optional() }),
      amountMicros: micros,
      currency: str,
      amountDisplayString: str.optional(),
      tier: z.number().int().nonnegative(),
    })
    .optional(),
  membershipGiftingDetails: z.object({ giftMembershipsCount: z.number().int().nonnegative(), giftMembershipsLevelName: str.optional() }).optional(),
  giftMembershipReceivedDetails: z
    .object({ memberLevelName: str.optional(), gifterChannelId: str.optional(), associatedMembershipGiftingMessageId: str.optional() })
    .optional(),
});

/** A liveChatMessage resource. */
export const liveChatMessageSchema = z.object({
  kind: z.literal("youtube#liveChatMessage").optional(),
  id: str.min(1),
  snippet: liveChatSnippetSchema,
  authorDetails: authorDetailsSchema.optional(),
});

/** A liveChatMessage resource. */
export type LiveChatMessage = z.infer<typeof liveChatMessageSchema>;

/**
 * The answer of liveChatMessages.list: `items` stay unknown here and are validated one by one, so a
 * malformed item is skipped rather than losing the page.
 */
export const liveChatMessageListSchema = z.object({
  nextPageToken: str.optional(),
  pollingIntervalMillis: z.number().int().nonnegative().optional(),
  offlineAt: str.optional(),
  items: z.array(z.unknown()).default([]),
});

/** A liveBroadcast resource (snippet and status). */
export const liveBroadcastSchema = z.object({
  id: str,
  snippet: z.object({
    title: str.optional(),
    channelId: str.optional(),
    actualStartTime: str.optional(),
    actualEndTime: str.optional(),
    liveChatId: str.optional(),
  }),
  status: z.object({ lifeCycleStatus: str.optional() }).optional(),
});

/** A liveBroadcast resource. */
export type LiveBroadcast = z.infer<typeof liveBroadcastSchema>;

/** The answer of liveBroadcasts.list. */
export const liveBroadcastListSchema = z.object({ items: z.array(liveBroadcastSchema).default([]) });

/** The answer of channels.list (`mine=true`). */
export const channelListSchema = z.object({
  items: z
    .array(
      z.object({
        id: str,
        snippet: z
          .object({ title: str.optional(), customUrl: str.optional(), thumbnails: z.object({ default: z.object({ url: str }).optional() }).optional() })
          .optional(),
      }),
    )
    .default([]),
});

/** A subscription resource as `mySubscribers=true` lists it (part `subscriberSnippet`). */
export const subscriptionSchema = z.object({
  id: str,
  subscriberSnippet: z.object({ channelId: str, title: str }),
});

/** The answer of subscriptions.list. */
export const subscriptionListSchema = z.object({ nextPageToken: str.optional(), items: z.array(z.unknown()).default([]) });

/** Google's JSON error body: `{"error": {"code", "message", "errors": [{"reason", "domain"}]}}`. */
export const googleErrorSchema = z.object({
  error: z.object({
    code: z.number().int().optional(),
    message: str.optional(),
    status: str.optional(),
    errors: z.array(z.object({ reason: str.optional(), domain: str.optional(), message: str.optional() })).optional(),
  }),
});

/** Google's OAuth 2.0 token answer. */
export const googleTokenSchema = z.object({
  access_token: str.min(1),
  expires_in: z.number().int().positive().optional(),
  refresh_token: str.min(1).optional(),
  scope: str.optional(),
  token_type: str.optional(),
});
