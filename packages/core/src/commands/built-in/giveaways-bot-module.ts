import { botMessage } from "../modules/system/bot-messages.js";
import type { GiveawayModule } from "../modules/giveaways/giveaway-module.js";
import type { GiveawayState } from "../modules/giveaways/giveaway-record.js";
import { giveawayRoutes } from "../modules/giveaways/giveaway-routes.js";
import type { GiveawayNews } from "../modules/giveaways/giveaway-routes.js";
import type { BotChatLine, BotChatResult, BotModule, BotModuleContext, BotModuleRoute } from "../runtime/bot-module.js";

/** Options of {@link GiveawaysBotModule}. */
export interface GiveawaysBotModuleOptions {
  giveaways: GiveawayModule;
  /** A channel's stored giveaway (what {@link GiveawaysBotModule.load} loads), or null. */
  stored?(channel: string): unknown;
  /**
   * Settles once the giveaway changes made so far (through the giveaway module's `onChange`) are
   * stored, and rejects when that write failed: a route announces a step only after it. Without it
   * changes count as stored at once.
   */
  persisted?(channel: string): Promise<void>;
}

/**
 * Giveaways as a command module: a line whose first word is the open giveaway's keyword is an
 * entry (or a refused one) and goes no further; {@link announce} tells chat about a change in the
 * channel's language. Its routes (`/v1/bots/{user}/giveaways`) open, close, draw and reroll; the
 * giveaway module stores each change through its own options.
 */
export class GiveawaysBotModule implements BotModule {
  readonly name = "giveaways";
  readonly stage = "command";
  readonly giveaways: GiveawayModule;
  readonly routes: readonly BotModuleRoute[];
  readonly #stored: ((channel: string) => unknown) | undefined;
  readonly #persisted: ((channel: string) => Promise<void>) | undefined;

  constructor(options: GiveawaysBotModuleOptions) {
    this.giveaways = options.giveaways;
    this.#stored = options.stored;
    this.#persisted = options.persisted;
    this.routes = giveawayRoutes(this);
  }

  async onChat(line: BotChatLine): Promise<BotChatResult | null> {
    const entry = await this.giveaways.enter(line.event);
    // The keyword is the giveaway's only while it is open: once closed, `!join` reaches the viewer
    // queue or a custom command again.
    return entry.status === "not_keyword" || entry.status === "closed" ? null : { handled: true };
  }

  load(channel: string, ctx: BotModuleContext): void {
    const stored = this.#stored?.(channel) ?? null;
    try {
      if (stored !== null) this.giveaways.restore(channel, stored);
    } catch (err) {
      ctx.log.error({ err, channel }, "stored giveaway could not be loaded");
    }
  }

  forget(channel: string): void {
    this.giveaways.removeChannel(channel);
  }

  /** Settles once the channel's giveaway changes so far are stored (the host's `persisted` option). */
  async persisted(channel: string): Promise<void> {
    await this.#persisted?.(channel);
  }

  /** Announces a giveaway change in the channel's language, when the giveaway says to. */
  async announce(channel: string, state: GiveawayState, what: GiveawayNews, winners: readonly string[], ctx: BotModuleContext): Promise<void> {
    if (!state.settings.announce) return;
    const language = ctx.language(channel);
    const text =
      what === "opened"
        ? botMessage(language, "giveaway_opened", { keyword: state.settings.keyword })
        : what === "closed"
          ? botMessage(language, "giveaway_closed", { count: state.entries.length })
          : winners.length > 0
            ? botMessage(language, "giveaway_winners", { winners: winners.map((w) => `@${w}`).join(", ") })
            : botMessage(language, "giveaway_no_entries");
    await ctx.announce(channel, text);
  }
}
