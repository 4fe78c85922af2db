import { goalIncrement } from "../../goals/goal-bar.js";
import { counterValue } from "../modules/counters/key-value-counters.js";
import { GOAL_BAR_LIMITS } from "../modules/goal-bars/goal-bar-records.js";
import type { GoalBarStore, StoredGoalBar } from "../modules/goal-bars/goal-bar-records.js";
import type { BotAlert, BotModule, BotModuleContext, BotModuleRoute } from "../runtime/bot-module.js";

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
 * every tick. It never answers chat.
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

  onAlert(alert: BotAlert, ctx: BotModuleContext): void {
    const now = ctx.now();
    for (const goal of this.#options.store.list(alert.channel)) {
      if (ended(goal, now)) continue;
      const step = goalIncrement(goal.kind, alert.type, alert.data);
      if (step <= 0) continue;
      const updated = this.#options.store.setCurrent(alert.channel, goal.id, (current) => Math.min(GOAL_BAR_LIMITS.progress, current + step));
      if (updated) this.#options.onUpdated?.(alert.channel, updated);
    }
  }

  async tick(ctx: BotModuleContext): Promise<void> {
    for (const channel of this.#options.store.channels()) await this.refreshCounters(channel, ctx);
  }

  /** Brings the channel's counter goals in line with their counters; tells of the ones that moved. */
  async refreshCounters(channel: string, ctx: Pick<BotModuleContext, "store" | "now">): Promise<void> {
    for (const goal of this.#options.store.list(channel)) {
      if (goal.kind !== "counter" || goal.counter === null || ended(goal, ctx.now())) continue;
      const value = await counterValue(ctx.store, channel, goal.counter);
      if (value === goal.current) continue;
      const updated = this.#options.store.setCurrent(channel, goal.id, () => value);
      if (updated) this.#options.onUpdated?.(channel, updated);
    }
  }
}

function ended(goal: StoredGoalBar, now: number): boolean {
  return goal.ends_at !== null && Date.parse(goal.ends_at) <= now;
}
