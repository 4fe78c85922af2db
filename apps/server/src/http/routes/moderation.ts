import { z } from "zod";
import { botUserParam, moderationViewSchema } from "@ovation/core/api";
import { moderationSettingsSchema } from "@ovation/core";
import { resolveUserParam } from "../authenticate.js";
import { issuesToApiError } from "../issue-errors.js";
import { authErrorResponses } from "../types.js";
import type { ZodApp } from "../types.js";

/**
 * Auto-moderation of `{user}`'s bot (scope `chatbot:manage:moderation`): read the settings with what
 * each platform can enforce and the latest outcomes; replace the settings.
 */
export async function moderationRoutes(app: ZodApp): Promise<void> {
  const { repos, botModules } = app.ovation;
  const auth = app.ovation.authenticate("chatbot:manage:moderation");
  const security = [{ bearerAuth: [] }];
  const tags = ["bot moderation"];
  const params = z.object({ user: botUserParam });

  const view = (userId: number) => {
    const scorer = botModules.moderation.scorer;
    return {
      settings: botModules.moderation.settings(String(userId)) ?? botModules.moderation.prepare({}).settings,
      scorer: scorer ? { name: scorer.name, description: scorer.description } : null,
      availability: botModules.moderationAvailability(userId),
      recent: botModules.recentModeration(userId),
    };
  };

  app.get(
    "/v1/bots/:user/moderation",
    { preHandler: auth, schema: { tags, security, summary: "Auto-moderation settings, availability and recent actions", params, response: { 200: moderationViewSchema, ...authErrorResponses } } },
    async (request) => view(resolveUserParam(request, request.params.user)),
  );

  app.put(
    "/v1/bots/:user/moderation",
    {
      preHandler: auth,
      schema: {
        tags,
        security,
        summary: "Replace the auto-moderation settings",
        description:
          "Rules left out take their defaults (off). `bad_words.patterns` are RE2 patterns (linear time; no backreferences or lookaround). `links.allowed_domains` are written like example.com and cover their subdomains.",
        params,
        body: moderationSettingsSchema,
        response: { 200: moderationViewSchema, ...authErrorResponses },
      },
    },
    async (request) => {
      const userId = resolveUserParam(request, request.params.user);
      try {
        botModules.setModeration(userId, request.body);
      } catch (error) {
        issuesToApiError(error, "bad_words.patterns");
      }
      await repos.store.persisted();
      return view(userId);
    },
  );
}
