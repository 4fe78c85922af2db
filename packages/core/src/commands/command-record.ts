import { z } from "zod";
import { SEND_AS } from "../plugins/contract.js";
import { COMMAND_REGEX_MAX_LENGTH, CommandRegex } from "./command-regex.js";
import { PERMISSION_LEVELS, type PermissionLevelName } from "./permission-levels.js";

/** Bounds of the command record; documented field by field in docs/commands.md. */
export const COMMAND_LIMITS = {
  nameLength: 32,
  aliases: 20,
  responseLength: 2_000,
  regexLength: COMMAND_REGEX_MAX_LENGTH,
  price: 1_000_000,
  cooldownSeconds: 86_400,
} as const;

/** When a command answers, from the channel's live state. */
export const ENABLE_WHEN = ["online", "offline", "both"] as const;
/** One of {@link ENABLE_WHEN}. */
export type EnableWhen = (typeof ENABLE_WHEN)[number];

const levelNames = Object.keys(PERMISSION_LEVELS) as [PermissionLevelName, ...PermissionLevelName[]];

/**
 * Matches names WITHOUT control (`\p{Cc}`, NUL included) and format characters (`\p{Cf}`: zero-width
 * space/joiners, bidirectional overrides and isolates, BOM, soft hyphen): they make two names look
 * alike or a name look like another (issue 10).
 */
const INVISIBLE_OR_CONTROL = /^[^\p{Cc}\p{Cf}]*$/u;

/** A command name or alias: one word, the `!` prefix optional on input and removed. */
export const commandNameSchema = z
  .string()
  .trim()
  .transform((name) => (name.startsWith("!") ? name.slice(1) : name))
  .pipe(
    z
      .string()
      .min(1, "must not be empty")
      .max(COMMAND_LIMITS.nameLength, `must be at most ${COMMAND_LIMITS.nameLength} characters`)
      .regex(/^[^\s!]\S*$/u, "must be one word without spaces and without a second leading !")
      .regex(INVISIBLE_OR_CONTROL, "must not contain control characters (NUL...), zero-width characters or bidirectional overrides"),
  );

const permissionSchema = z.union([
  z.number().int().min(PERMISSION_LEVELS.everyone).max(PERMISSION_LEVELS.broadcaster),
  z.enum(levelNames).transform((name) => PERMISSION_LEVELS[name]),
]);

const cooldownSchema = z.number().int().min(0).max(COMMAND_LIMITS.cooldownSeconds);

/**
 * The bot command record (docs/commands.md, "The command record") on input. Defaults fill what is omitted; the
 * output carries every field, with `commands` = the base name plus the aliases and
 * `command_aliases` = the aliases without the base name (case-insensitively de-duplicated).
 */
export const botCommandSchema = z
  .object({
    command: commandNameSchema,
    commands: z.array(commandNameSchema).max(COMMAND_LIMITS.aliases + 1).optional(),
    command_aliases: z.array(commandNameSchema).max(COMMAND_LIMITS.aliases).default([]),
    response: z
      .string()
      .max(COMMAND_LIMITS.responseLength, `must be at most ${COMMAND_LIMITS.responseLength} characters`)
      .refine((text) => text.trim().length > 0, "must not be empty"),
    command_regex: z
      .string()
      .max(COMMAND_LIMITS.regexLength)
      .nullable()
      .default(null)
      .transform((pattern) => (pattern === null || pattern === "" ? null : pattern))
      .superRefine((pattern, ctx) => {
        if (pattern === null) return;
        try {
          CommandRegex.compile(pattern);
        } catch (error) {
          ctx.addIssue({ code: "custom", message: (error as Error).message });
        }
      }),
    permissions: permissionSchema.default(PERMISSION_LEVELS.everyone),
    price: z.number().int().min(0).max(COMMAND_LIMITS.price).default(0),
    send_as: z.enum(SEND_AS).default("say"),
    enable_when: z.enum(ENABLE_WHEN).default("both"),
    user_cooldown: cooldownSchema.default(0),
    global_cooldown: cooldownSchema.default(5),
    is_visible: z.boolean().default(true),
  })
  .transform((record, ctx) => {
    const seen = new Set<string>([record.command.toLowerCase()]);
    const aliases: string[] = [];
    for (const name of [...(record.commands ?? []), ...record.command_aliases]) {
      const key = name.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      aliases.push(name);
    }
    if (aliases.length > COMMAND_LIMITS.aliases) {
      ctx.addIssue({ code: "custom", path: ["command_aliases"], message: `at most ${COMMAND_LIMITS.aliases} aliases` });
      return z.NEVER;
    }
    return { ...record, commands: [record.command, ...aliases], command_aliases: aliases };
  });

/** A command record as given (fields with defaults may be omitted). */
export type BotCommandInput = z.input<typeof botCommandSchema>;
/** A validated command record with every field. */
export type BotCommand = z.output<typeof botCommandSchema>;
