import { z } from "zod";
import { botUserParam, systemCommandsBodySchema, systemCommandsViewSchema } from "@ovation/core/api";
import { BOT_LANGUAGES, SYSTEM_COMMANDS } from "@ovation/core";
import type { BotSettings } from "@ovation/core";
import { resolveUserParam } from "../authenticate.js";
import { authErrorResponses } from "../types.js";
import type { ZodApp } from "../types.js";

/**
 * The built-in commands of `{user}`'s bot (docs/system-commands.md): `GET` (scope `chatbot:read`)
 * answers the bot's language, the overlay switches and, per command, whether it is on, who may use
 * it (`levels`) and which of the streamer's own commands replaces it; `PUT` (scope `chatbot:manage`) replaces
 * the settings, which reach the browser sources at once as `!visuals` and the others do from chat.
 */
export async function systemCommandRoutes(app: ZodApp): Promise<void> {
  const { repos, botModules } = app.ovation;
  const read = app.ovation.authenticate("chatbot:read");
  const manage = app.ovation.authenticate("chatbot:manage");
  const security = [{ bearerAuth: [] }];
  const tags = ["bot system commands"];
  const params = z.object({ user: botUserParam });

  const view = (userId: number, settings: BotSettings): z.infer<typeof systemCommandsViewSchema> => {
    const own = repos.commands.listForUser(userId);
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

  app.get(
    "/v1/bots/:user/system-commands",
    { preHandler: read, schema: { tags, security, summary: "The built-in commands, the bot's language and the overlay switches", params, response: { 200: systemCommandsViewSchema, ...authErrorResponses } } },
    async (request) => {
      const userId = resolveUserParam(request, request.params.user);
      return view(userId, botModules.system.settings(String(userId)));
    },
  );

  app.put(
    "/v1/bots/:user/system-commands",
    {
      preHandler: manage,
      schema: {
        tags,
        security,
        summary: "Replace the bot's settings: language, overlay switches, system commands switched off, who may use each",
        description:
          "The whole settings: a field left out takes its default (`en`, every switch on, no command off, `help` for everyone and the others for moderators). `levels` maps a command to `everyone`, `subscriber`, `vip`, `moderator` or `broadcaster`. A change of `visuals`, `effects` or `sounds` reaches the browser sources at once.",
        params,
        body: systemCommandsBodySchema,
        response: { 200: systemCommandsViewSchema, ...authErrorResponses },
      },
    },
    async (request) => {
      const userId = resolveUserParam(request, request.params.user);
      const settings = botModules.system.update(String(userId), request.body);
      await repos.store.persisted();
      return view(userId, settings);
    },
  );
}
