import type { z } from "zod";
import type { ChatEvent } from "../../../chat/event.js";
import type { ModerationTarget } from "../../../plugins/contract.js";
import { CHAT_BUDGET, ChatBudget } from "../../chat-budget.js";
import type { BotModuleRoute } from "../../runtime/bot-module.js";
import { fieldsRouteError } from "../field-errors.js";
import type { ModerationModule } from "./moderation-module.js";
import { moderationSettingsSchema } from "./moderation-record.js";
import type { ModerationAction, ModerationRule, ModerationSettings } from "./moderation-record.js";
import { moderationTestBodySchema, moderationTestResultSchema, moderationViewSchema } from "./moderation-view.js";
import type { ModerationTestWriter } from "./moderation-view.js";

/** What the moderation API needs of the host: storing settings, the bot's channels, a dry run's chat event. */
export interface ModerationRoutesPort {
  /** Stores a channel's validated settings (the module's `stored` reads them back at start). */
  save(channel: string, settings: ModerationSettings): void;
  /** The streamer's platform channels the bot is in, by plugin and platform (none when the plugins are not attached). */
  channels(channel: string): readonly { plugin: string; platform: string }[];
  /** A dry run's message as real chat would bring it to `channel`, written as `writer` says. */
  dryRunEvent(channel: string, message: string, writer: ModerationTestWriter): ChatEvent;
}

/** What the routes read of the running module: its rules, the latest outcomes, the plugins' moderation parts. */
export interface ModerationRoutesModule {
  readonly moderation: ModerationModule;
  recent(channel: string): z.output<typeof moderationViewSchema>["recent"];
  target(plugin: string): ModerationTarget | null;
}

/**
 * The auto-moderation API (docs/moderation.md), at `/v1/bots/{user}/moderation` (scope
 * `chatbot:manage:moderation`): read the settings with what each platform can enforce and the
 * latest outcomes, replace the settings, and test a message against them.
 */
export function moderationRoutes(module: ModerationRoutesModule, port: ModerationRoutesPort): BotModuleRoute[] {
  const { moderation } = module;
  // "Test a message" matches on a budget of its own, 25 times the chat's (`CHAT_BUDGET`): a busy
  // machine must not turn its answer into "no rule", and a dry run spends none of the channel's chat
  // time. Patterns stay bounded by their limits and the route by the rate limit.
  const dryRunBudget = new ChatBudget({ messageMs: CHAT_BUDGET.messageMs * 25, windowBudgetMs: CHAT_BUDGET.windowBudgetMs * 25 });
  const scope = "chatbot:manage:moderation";

  const view = (channel: string): z.output<typeof moderationViewSchema> => {
    const scorer = moderation.scorer;
    return {
      settings: moderation.settings(channel) ?? moderation.prepare({}).settings,
      scorer: scorer ? { name: scorer.name, description: scorer.description } : null,
      availability: availability(module, port, channel),
      recent: module.recent(channel),
    };
  };

  return [
    {
      method: "GET",
      path: "moderation",
      scope,
      summary: "Auto-moderation settings, availability and recent actions",
      response: moderationViewSchema,
      handle: ({ channel }) => view(channel),
    },
    {
      method: "POST",
      path: "moderation/test",
      readOnly: true,
      scope,
      summary: "Test a chat message against the auto-moderation rules",
      description:
        "Checks the message as real chat would be (the saved rules, the writer's exemptions: a viewer without badges on twitch unless `event` says otherwise) and answers the rule that fires with its action, or `verdict: null`. Nothing is enforced or logged.",
      body: moderationTestBodySchema,
      response: moderationTestResultSchema,
      async handle({ channel, body }) {
        const { message, event } = moderationTestBodySchema.parse(body);
        const verdict = await moderation.check(port.dryRunEvent(channel, message, event), { budget: dryRunBudget });
        return { verdict: verdict === null ? null : { rule: verdict.rule, action: verdict.action, detail: verdict.detail } };
      },
    },
    {
      method: "PUT",
      path: "moderation",
      scope,
      summary: "Replace the auto-moderation settings",
      description:
        "Rules left out take their defaults (off). `bad_words.patterns` are RE2 patterns (linear time; no backreferences or lookaround). `links.allowed_domains` are written like example.com and cover their subdomains.",
      body: moderationSettingsSchema,
      response: moderationViewSchema,
      handle({ channel, body }) {
        let settings: ModerationSettings;
        try {
          settings = moderation.set(channel, body);
        } catch (error) {
          fieldsRouteError(error, "bad_words.patterns");
        }
        port.save(channel, settings);
        return view(channel);
      },
    },
  ];
}

/**
 * Per platform channel of the streamer: for each rule, the actions it may take and whether the
 * plugin can take them (`warn` needs only sending). A rule whose action the plugin lacks is
 * `available: false` there and is logged as `unavailable` when it triggers.
 */
function availability(module: ModerationRoutesModule, port: ModerationRoutesPort, channel: string): z.output<typeof moderationViewSchema>["availability"] {
  const settings = module.moderation.settings(channel) ?? module.moderation.prepare({}).settings;
  return port.channels(channel).map(({ plugin, platform }) => {
    const support = module.target(plugin)?.support() ?? { deleteMessage: false, timeout: false, ban: false };
    const can = (type: ModerationAction["type"]) => type === "warn" || (type === "delete" ? support.deleteMessage : support[type]);
    const thresholds = settings.toxicity.thresholds;
    const toxicity = (["warn", "delete", "timeout", "ban"] as const).filter((type) => thresholds[type] !== null);
    const rule = (types: ModerationAction["type"][]) => ({ actions: types, available: types.every(can) });
    const rules: Record<ModerationRule, { actions: string[]; available: boolean }> = {
      caps: rule([settings.caps.action.type]),
      symbols: rule([settings.symbols.action.type]),
      links: rule([settings.links.action.type]),
      bad_words: rule([settings.bad_words.action.type]),
      length: rule([settings.length.action.type]),
      toxicity: rule(toxicity),
    };
    return { plugin, platform, rules };
  });
}
