import { z } from "zod";
import { chatBadgeSchema } from "../chat/event.js";
import { platformSchema } from "../platforms.js";

/** A command as the API returns it: the record's fields plus `commands` (base name and aliases). */
export const commandViewSchema = z
  .object({
    id: z.number(),
    command: z.string(),
    commands: z.array(z.string()),
    command_aliases: z.array(z.string()),
    response: z.string(),
    command_regex: z.string().nullable(),
    permissions: z.number(),
    price: z.number(),
    send_as: z.string(),
    enable_when: z.string(),
    user_cooldown: z.number(),
    global_cooldown: z.number(),
    is_visible: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "BotCommand" });

/** Body of the dry run: a chat message and optionally parts of the chat event. */
export const commandTestBodySchema = z.object({
  message: z.string().min(1).max(500),
  event: z
    .object({
      platform: platformSchema.optional(),
      user: z
        .object({
          platform_id: z.string().min(1).max(256).optional(),
          username: z.string().min(1).max(256).optional(),
          badges: z.array(chatBadgeSchema).max(100).optional(),
        })
        .optional(),
      badges: z.array(chatBadgeSchema).max(100).optional().describe("Shorthand for user.badges"),
    })
    .optional(),
  command: z
    .looseObject({})
    .optional()
    .describe("An unsaved command (the body of POST /v1/bots/{user}/commands) to test instead of the saved ones; its errors answer 422 like a save"),
});

/** Answer of the dry run. */
export const commandTestResultSchema = z.object({
  matched: z.string().nullable().describe("Name of the command that matched, or null"),
  text: z.string().nullable(),
  send_as: z.string().nullable(),
  error: z.string().nullable(),
  status: z.string(),
});

/** The secret that signs the bot's outbound calls. */
export const signingSecretSchema = z.object({
  secret: z.string(),
  algorithm: z.literal("HMAC-SHA256"),
  headers: z.object({ timestamp: z.literal("X-Ovation-Timestamp"), signature: z.literal("X-Ovation-Signature") }),
});
