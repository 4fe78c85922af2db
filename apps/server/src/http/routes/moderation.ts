import { z } from "zod";
import { botUserParam, moderationTestBodySchema, moderationTestResultSchema, moderationViewSchema } from "@ovation/core/api";
import { ApiError } from "../../errors.js";
import { CHAT_BUDGET, ChatBudget, moderationSettingsSchema } from "@ovation/core";
import { resolveUserParam } from "../authenticate.js";
import { issuesToApiError } from "../issue-errors.js";
import { dryRunChatEvent } from "./dry-run-event.js";
import { authErrorResponses } from "../types.js";
import type { ZodApp } from "../types.js";

/**
 * Auto-moderation of `{user}`'s bot (scope `chatbot:manage:moderation`): read the settings with what
 * each platform can enforce and the latest outcomes; replace the settings.
 */
export async function moderationRoutes(app: ZodApp): Promise<void> {
  const { repos, botModules } = app.ovation;
  // "Test a message" matches on a budget of its own, 25 times the chat's (`CHAT_BUDGET`): a busy
  // machine must not turn its answer into "no rule", and a dry run spends none of the channel's chat
  // time. Patterns stay bounded by their limits and the route by the rate limit.
  const dryRunBudget = new ChatBudget({ messageMs: CHAT_BUDGET.messageMs * 25, windowBudgetMs: CHAT_BUDGET.windowBudgetMs * 25 });
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

  app.post(
    "/v1/bots/:user/moderation/test",
    {
      preHandler: auth,
      schema: {
        tags,
        security,
        summary: "Test a chat message against the auto-moderation rules",
        description:
          "Checks the message as real chat would be (the saved rules, the writer's exemptions: a viewer without badges on twitch unless `event` says otherwise) and answers the rule that fires with its action, or `verdict: null`. Nothing is enforced or logged.",
        params,
        body: moderationTestBodySchema,
        response: { 200: moderationTestResultSchema, ...authErrorResponses },
      },
    },
    async (request) => {
      const userId = resolveUserParam(request, request.params.user);
      const user = repos.users.get(userId);
      if (!user) throw new ApiError("OVATION_ERR_AUTH_UNAUTHENTICATED");
      const verdict = await botModules.moderation.check(dryRunChatEvent(repos, user, request.body.message, request.body.event), { budget: dryRunBudget });
      return { verdict: verdict === null ? null : { rule: verdict.rule, action: verdict.action, detail: verdict.detail } };
    },
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
