import { z } from "zod";
import { BOT_LANGUAGES } from "../commands/modules/system/bot-messages.js";
import { PERMISSION_LEVELS } from "../commands/permission-levels.js";
import type { PermissionLevelName } from "../commands/permission-levels.js";
import { SYSTEM_COMMANDS, botSettingsSchema } from "../commands/modules/system/system-commands.js";

/** Body of `PUT /v1/bots/{user}/system-commands`: the whole bot settings (a field left out takes its default). */
export const systemCommandsBodySchema = botSettingsSchema;

/** Answer of `GET`/`PUT /v1/bots/{user}/system-commands`: the bot's settings and each built-in command's state. */
export const systemCommandsViewSchema = z
  .object({
    settings: botSettingsSchema,
    commands: z.array(
      z.object({
        name: z.enum(SYSTEM_COMMANDS),
        enabled: z.boolean().describe("False when switched off in `settings.disabled_commands`"),
        level: z
          .enum(Object.keys(PERMISSION_LEVELS) as [PermissionLevelName, ...PermissionLevelName[]])
          .describe("`settings.levels` of the command: who `!help` answers; for the others, who may change the setting (everyone may ask and see)"),
        replaced_by: z.number().nullable().describe("The id of your own command of that name or alias, which answers instead"),
      }),
    ),
    languages: z.array(z.enum(BOT_LANGUAGES)).describe("The languages the bot's own messages come in"),
  })
  .meta({ id: "BotSystemCommands" });
