import { z } from "zod";
import { chatBadgeSchema } from "../../../chat/event.js";
import { platformSchema } from "../../../platforms.js";
import type { BotRouteErrorEntry } from "../route-errors.js";

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

/** The chat event parts a dry run may give (`event` of {@link commandTestBodySchema}). */
export type CommandTestEvent = z.output<typeof commandTestBodySchema>["event"];

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

/** The writable fields of a stored command (what the host's store keeps besides its id and times). */
export interface CommandFields {
  command: string;
  command_aliases: string[];
  response: string;
  command_regex: string | null;
  permissions: number;
  price: number;
  send_as: string;
  enable_when: string;
  user_cooldown: number;
  global_cooldown: number;
  is_visible: boolean;
}

/** A stored command of a channel. */
export interface StoredCommand extends CommandFields {
  readonly id: number;
  readonly created_at: string;
  readonly updated_at: string;
}

/** The API view of a stored command. */
export function presentCommand(record: StoredCommand): z.infer<typeof commandViewSchema> {
  return {
    id: record.id,
    command: record.command,
    command_aliases: [...record.command_aliases],
    response: record.response,
    command_regex: record.command_regex,
    permissions: record.permissions,
    price: record.price,
    send_as: record.send_as,
    enable_when: record.enable_when,
    user_cooldown: record.user_cooldown,
    global_cooldown: record.global_cooldown,
    is_visible: record.is_visible,
    commands: [record.command, ...record.command_aliases],
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

/**
 * The commands API's error codes with their status and message (the server's registry spreads them
 * in; apps/server/README.md lists them).
 */
export const COMMANDS_ERROR_CODES = {
  OVATION_ERR_COMMANDS_NOT_FOUND: { status: 404, message: "No such command.", description: "The command does not exist or belongs to another user." },
  OVATION_ERR_COMMANDS_NAME_TAKEN: { status: 422, message: "The command has already been taken.", description: "The name or an alias is already used by another command of the user." },
  OVATION_ERR_COMMANDS_LIMIT_REACHED: {
    status: 422,
    message: "The command limit is reached.",
    description:
      "The user already has the most commands allowed (200, `USER_CAPS.commands`); delete one first. Or, with `errors.command_regex`, the command would make more than 20 commands with a `command_regex` (`regexCommands`) or their compiled patterns would pass 4,000 instructions together (`commandProgramTotal`).",
  },
} as const satisfies Readonly<Record<string, BotRouteErrorEntry>>;
