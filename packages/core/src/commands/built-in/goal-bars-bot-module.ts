import { goalIncrement } from "../../goals/goal-bar.js";
import { counterValue } from "../modules/counters/key-value-counters.js";
import { GOAL_BAR_LIMITS } from "../modules/goal-bars/goal-bar-records.js";
import type { GoalBarStore, StoredGoalBar } from "../modules/goal-bars/goal-bar-records.js";
import type { BotAlert, BotModule, BotModuleContext, BotModuleLog, BotModuleRoute } from "../runtime/bot-module.js";

/** Options of {@link GoalBarsBotModule}. */
export interface GoalBarsBotModuleOptions<G extends StoredGoalBar> {
  store: GoalBarStore<G>;
  /** A goal bar moved (tell the browser sources). */
  onUpdated?(channel: string, goal: G): void;
  /** The API routes to serve: `goalBarsRoutes(records, onUpdated)` over the same store; none without it. */
  routes?: readonly BotModuleRoute[];
}

/**
 * Goal bars: a platform notification of a matching kind moves them (followers, subscribers, bits,
 * tips), until they end; counter goals follow their counter in the channel's key-value store,
 * brought in line after each chat line the custom commands saw ({@link refreshCounters}) and on
 * every tick. The browser sources hear of a move once the store has it. It never answers chat.
 */
export class GoalBarsBotModule<G extends StoredGoalBar = StoredGoalBar> implements BotModule {
  readonly name = "goal-bars";
  readonly stage = "observe";
  readonly routes: readonly BotModuleRoute[];
  readonly #options: GoalBarsBotModuleOptions<G>;

  constructor(options: GoalBarsBotModuleOptions<G>) {
    this.#options = options;
    this.routes = options.routes ?? [];
  }

  onAlert(alert: BotAlert, ctx: BotModuleContext): Promise<void> | void {
    const now = ctx.now();
    const moved: G[] = [];
    for (const goal of this.#options.store.list(alert.channel)) {
      if (ended(goal, now)) continue;
      const step = goalIncrement(goal.kind, alert.type, alert.data);
      if (step <= 0) continue;
      const updated = this.#options.store.setCurrent(alert.channel, goal.id, (current) => Math.min(GOAL_BAR_LIMITS.progress, current + step));
      if (updated) moved.push(updated);
    }
    return this.#tell(alert.channel, moved, ctx.log);
  }

  async tick(ctx: BotModuleContext): Promise<void> {
    for (const channel of this.#options.store.channels()) await this.refreshCounters(channel, ctx);
  }

  /**
   * Brings the channel's counter goals in line with their counters; tells of the ones that moved
   * once the store has them, without waiting for that (a command's chat answer does not wait for
   * the goal bars' write).
   */
  async refreshCounters(channel: string, ctx: Pick<BotModuleContext, "store" | "now" | "log">): Promise<void> {
    const moved: G[] = [];
    for (const goal of this.#options.store.list(channel)) {
      if (goal.kind !== "counter" || goal.counter === null || ended(goal, ctx.now())) continue;
      const value = await counterValue(ctx.store, channel, goal.counter);
      if (value === goal.current) continue;
      const updated = this.#options.store.setCurrent(channel, goal.id, () => value);
      if (updated) moved.push(updated);
    }
    void this.#tell(channel, moved, ctx.log);
  }

  /**
   * Tells the browser sources of moved goal bars once the store has them (at once when the store
   * has no `persisted`); a move whose write failed is logged and not told.
   */
  #tell(channel: string, moved: readonly G[], log: BotModuleLog): Promise<void> | void {
    if (moved.length === 0) return;
    const tell = () => {
      for (const goal of moved) this.#options.onUpdated?.(channel, goal);
    };
    const persisted = this.#options.store.persisted?.();
    if (persisted === undefined) return tell();
    return persisted.then(tell, (err: unknown) => log.error({ err, channel, goalBars: moved.map((g) => g.id) }, "goal bar progress not stored; browser sources not told"));
  }
}

function ended(goal: StoredGoalBar, now: number): boolean {
  return goal.ends_at !== null && Date.parse(goal.ends_at) <= now;
}
