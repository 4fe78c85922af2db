import type { ModerationTarget } from "../../plugins/contract.js";
import { CHAT_PATTERN_LIMITS, CommandRegex } from "../command-regex.js";
import { enforceVerdict } from "../modules/moderation/enforce.js";
import type { ModerationModule } from "../modules/moderation/moderation-module.js";
import type { ModerationAction, ModerationRule, ModerationSettings } from "../modules/moderation/moderation-record.js";
import { moderationRoutes } from "../modules/moderation/moderation-routes.js";
import type { ModerationRoutesPort } from "../modules/moderation/moderation-routes.js";
import type { BotChatLine, BotChatResult, BotModule, BotModuleContext, BotModuleLog, BotModuleRoute } from "../runtime/bot-module.js";

/** Moderation outcomes remembered per channel. */
const RECENT_MODERATION = 50;

/** One auto-moderation outcome, newest first in {@link ModerationBotModule.recent}. */
export interface ModerationOutcome {
  at: string;
  platform: string;
  user_platform_id: string;
  username: string;
  rule: ModerationRule;
  action: ModerationAction["type"];
  detail: string;
  /** `done`; `unavailable` when the platform plugin cannot take the action; `failed` when it tried and failed. */
  result: "done" | "unavailable" | "failed";
}

/** Options of {@link ModerationBotModule}. */
export interface ModerationBotModuleOptions {
  moderation: ModerationModule;
  /** The moderation part of the platform plugin named `plugin` (where the line came from), or null. */
  target(plugin: string): ModerationTarget | null;
  /** A channel's stored settings (what {@link ModerationBotModule.load} loads), or null. */
  stored?(channel: string): ModerationSettings | null;
  /** What the API routes need of the host (storing settings, the bot's channels, a dry run's event); no routes without it. */
  routes?: ModerationRoutesPort;
}

/**
 * Auto-moderation as the runtime's guard: a line that breaks a rule is acted on through the
 * plugin's moderation part (or warned about in chat, in the channel's language) and goes no
 * further. The latest outcomes are kept per channel for the API (its routes, with the `routes` port).
 */
export class ModerationBotModule implements BotModule {
  readonly name = "moderation";
  readonly stage = "guard";
  readonly moderation: ModerationModule;
  readonly routes: readonly BotModuleRoute[];
  readonly #options: ModerationBotModuleOptions;
  readonly #recent = new Map<string, ModerationOutcome[]>();

  constructor(options: ModerationBotModuleOptions) {
    this.moderation = options.moderation;
    this.#options = options;
    const module = { moderation: this.moderation, recent: (channel: string) => this.recent(channel), target: (plugin: string) => options.target(plugin) };
    this.routes = options.routes ? moderationRoutes(module, options.routes) : [];
  }

  /** The latest outcomes of a channel, newest first. */
  recent(channel: string): ModerationOutcome[] {
    return [...(this.#recent.get(channel) ?? [])];
  }

  async onChat(line: BotChatLine, ctx: BotModuleContext): Promise<BotChatResult | null> {
    const { event, channel } = line;
    const verdict = await this.moderation.check(event);
    if (verdict === null) return null;
    const { result, warning, error } = await enforceVerdict(event, verdict, this.#options.target(line.plugin), ctx.language(channel));
    const list = this.#recent.get(channel) ?? [];
    list.unshift({
      at: new Date().toISOString(),
      platform: event.platform,
      user_platform_id: event.user.platform_id,
      username: event.user.username,
      rule: verdict.rule,
      action: verdict.action.type,
      detail: verdict.detail,
      result,
    });
    this.#recent.set(channel, list.slice(0, RECENT_MODERATION));
    const log = { err: error ?? undefined, channel, rule: verdict.rule, action: verdict.action.type, result, platform: event.platform };
    if (result === "done") ctx.log.info(log, "auto-moderation");
    else ctx.log.warn(log, result === "unavailable" ? "auto-moderation: the platform cannot take this action" : "auto-moderation action failed");
    return { handled: true, answers: warning === null ? [] : [{ text: warning, send_as: "say" }] };
  }

  /** Loads a channel's stored settings; settings over today's pattern limits load without the patterns that do not fit. */
  load(channel: string, ctx: BotModuleContext): void {
    const stored = this.#options.stored?.(channel) ?? null;
    if (stored === null) return;
    try {
      this.moderation.set(channel, stored);
    } catch (err) {
      ctx.log.error({ err, channel }, "stored moderation settings could not be loaded; loading them without the patterns over the limits");
      this.#loadWithinLimits(channel, stored, ctx.log);
    }
  }

  forget(channel: string): void {
    this.moderation.removeChannel(channel);
    this.#recent.delete(channel);
  }

  /**
   * Loads stored settings keeping only the patterns that compile within the limits (in order,
   * while they fit the channel's total): settings saved before the limits stay in force.
   */
  #loadWithinLimits(channel: string, settings: ModerationSettings, log: BotModuleLog): void {
    const patterns: string[] = [];
    let program = 0;
    for (const source of settings.bad_words.patterns) {
      try {
        const size = CommandRegex.compile(source).programSize;
        if (program + size > CHAT_PATTERN_LIMITS.moderationProgramTotal) continue;
        program += size;
        patterns.push(source);
      } catch {
        // Left out: the log before names the settings.
      }
    }
    try {
      this.moderation.set(channel, { ...settings, bad_words: { ...settings.bad_words, patterns } });
    } catch (err) {
      log.error({ err, channel }, "stored moderation settings could not be loaded");
    }
  }
}
