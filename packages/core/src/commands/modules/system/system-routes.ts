import { z } from "zod";
import type { BotModuleRoute } from "../../runtime/bot-module.js";
import { PERMISSION_LEVELS } from "../../permission-levels.js";
import type { PermissionLevelName } from "../../permission-levels.js";
import { BOT_LANGUAGES } from "./bot-messages.js";
import { SYSTEM_COMMANDS, botSettingsSchema } from "./system-commands.js";
import type { BotSettings, SystemCommands } from "./system-commands.js";

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

/** One of the streamer's own commands, as the system-commands view names it (the one answering instead). */
export interface OwnCommand {
  readonly id: number;
  readonly command: string;
  readonly command_aliases: readonly string[];
}

/**
 * The system commands' API (docs/system-commands.md), mounted at `/v1/bots/{user}/system-commands`:
 * `GET` (scope `chatbot:read`) answers the bot's language, the overlay switches and, per command,
 * whether it is on, who may use it (`levels`) and which of the streamer's own commands (`ownCommands`) replaces
 * it; `PUT` (scope `chatbot:manage`) replaces the settings, which reach the browser sources at once
 * as `!visuals` and the others do from chat.
 */
export function systemRoutes(system: SystemCommands, ownCommands: (channel: string) => readonly OwnCommand[]): BotModuleRoute[] {
  const view = (channel: string, settings: BotSettings): z.infer<typeof systemCommandsViewSchema> => {
    const own = ownCommands(channel);
    return {
      settings,
      commands: SYSTEM_COMMANDS.map((name) => ({
        name,
        enabled: !settings.disabled_commands.includes(name),
        level: settings.levels[name],
        replaced_by: own.find((c) => [c.command, ...c.command_aliases].some((n) => n.toLowerCase() === name))?.id ?? null,
      })),
      languages: [...BOT_LANGUAGES],
    };
  };
  return [
    {
      method: "GET",
      path: "system-commands",
      scope: "chatbot:read",
      summary: "The built-in commands, the bot's language and the overlay switches",
      response: systemCommandsViewSchema,
      handle: ({ channel }) => view(channel, system.settings(channel)),
    },
    {
      method: "PUT",
      path: "system-commands",
      scope: "chatbot:manage",
      summary: "Replace the bot's settings: language, overlay switches, system commands switched off, who may use each",
      description:
        "The whole settings: a field left out takes its default (`en`, every switch on, no command off, `help` for everyone and the others for moderators). `levels` maps a command to `everyone`, `subscriber`, `vip`, `moderator` or `broadcaster`. A change of `visuals`, `effects` or `sounds` reaches the browser sources at once.",
      body: systemCommandsBodySchema,
      response: systemCommandsViewSchema,
      handle: ({ channel, body }) => view(channel, system.update(channel, systemCommandsBodySchema.parse(body))),
    },
  ];
}
