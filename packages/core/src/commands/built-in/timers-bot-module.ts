import type { TimerModule } from "../modules/timers/timer-module.js";
import { timerFields, timerRoutes } from "../modules/timers/timer-routes.js";
import type { TimerRecords } from "../modules/timers/timer-routes.js";
import type { BotChatLine, BotModule, BotModuleContext, BotModuleLog, BotModuleRoute } from "../runtime/bot-module.js";

/** Options of {@link TimersBotModule}. */
export interface TimersBotModuleOptions {
  timers: TimerModule;
  /** Where the channels' timers are stored: what {@link TimersBotModule.load} loads and the routes change. */
  records: TimerRecords;
}

/**
 * Timers as an observer: every chat line that passed the guards counts toward the timers of its
 * channel and platform; the tick posts the timers that are due through `ctx.announce` (on the
 * timer's platform, as the timer's `send_as`). Its routes (`/v1/bots/{user}/timers`) change the
 * stored timers and load them again.
 */
export class TimersBotModule implements BotModule {
  readonly name = "timers";
  readonly stage = "observe";
  readonly timers: TimerModule;
  readonly routes: readonly BotModuleRoute[];
  readonly #records: TimerRecords;

  constructor(options: TimersBotModuleOptions) {
    this.timers = options.timers;
    this.#records = options.records;
    this.routes = timerRoutes(this, this.#records);
  }

  onChat(line: BotChatLine): null {
    this.timers.recordChat(line.event);
    return null;
  }

  async tick(ctx: BotModuleContext): Promise<void> {
    const { posts, failures } = await this.timers.tick();
    for (const failure of failures) ctx.log.warn(failure, "timer message failed to render");
    for (const post of posts) await ctx.announce(post.message.channel.id, post.message.text, post.platform, post.message.send_as);
  }

  load(channel: string, ctx: BotModuleContext): void {
    this.reload(channel, ctx.log);
  }

  /** Loads a channel's stored timers (after a change through the API); a timer that no longer compiles is logged and skipped. */
  reload(channel: string, log: BotModuleLog): void {
    const valid = this.#records
      .list(channel)
      .map(timerFields)
      .filter((input) => {
        try {
          this.timers.prepare(input);
          return true;
        } catch (err) {
          log.error({ err, channel, timer: input.name }, "stored timer could not be loaded; skipped");
          return false;
        }
      });
    this.timers.setTimers(channel, valid);
  }

  forget(channel: string): void {
    this.timers.removeChannel(channel);
  }
}
