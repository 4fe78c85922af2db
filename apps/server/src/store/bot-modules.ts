import type { BotSettings, GiveawayState, GoalBar, ModerationSettings, Timer } from "@ovation/core";
import type { Store } from "./store.js";
import { timestamp } from "./records.js";

/** A stored timer of a user's bot. */
export interface TimerRecord extends Timer {
  id: number;
  user_id: number;
  created_at: string;
  updated_at: string;
}

/** A stored goal bar with its progress (`current`). */
export interface GoalBarRecord extends GoalBar {
  id: number;
  user_id: number;
  current: number;
  created_at: string;
  updated_at: string;
}

/** A list of records with its own id sequence, kept under `extensions.<key>` of the store file. */
interface RecordList<T> {
  next_id: number;
  records: T[];
}

/** Shared list logic of the timer and goal-bar repositories: records per user, ids from one sequence. */
class UserRecordList<T extends { id: number; user_id: number; created_at: string; updated_at: string }> {
  readonly #list;

  constructor(store: Store, key: string) {
    this.#list = store.extension<RecordList<T>>(key, () => ({ next_id: 1, records: [] }));
  }

  create(userId: number, fields: Omit<T, "id" | "user_id" | "created_at" | "updated_at">): T {
    return this.#list.update((list) => {
      const now = timestamp();
      const record = { ...structuredClone(fields), id: list.next_id++, user_id: userId, created_at: now, updated_at: now } as T;
      list.records.push(record);
      return structuredClone(record);
    });
  }

  getForUser(userId: number, id: number): T | null {
    const record = this.#list.read().records.find((r) => r.id === id && r.user_id === userId);
    return record ? structuredClone(record) : null;
  }

  listForUser(userId: number): T[] {
    return this.#list.read().records.filter((r) => r.user_id === userId).map((r) => structuredClone(r));
  }

  listAll(): T[] {
    return this.#list.read().records.map((r) => structuredClone(r));
  }

  update(userId: number, id: number, change: (record: T) => void): T | null {
    return this.#list.update((list) => {
      const record = list.records.find((r) => r.id === id && r.user_id === userId);
      if (!record) return null;
      change(record);
      record.updated_at = timestamp();
      return structuredClone(record);
    });
  }

  remove(userId: number, id: number): boolean {
    return this.#list.update((list) => {
      const index = list.records.findIndex((r) => r.id === id && r.user_id === userId);
      if (index < 0) return false;
      list.records.splice(index, 1);
      return true;
    });
  }
}

/** Timers of users' bots (`extensions.timers`). */
export class TimersRepository extends UserRecordList<TimerRecord> {
  constructor(store: Store) {
    super(store, "timers");
  }
}

/** Goal bars of users with their progress (`extensions.goal_bars`). */
export class GoalBarsRepository extends UserRecordList<GoalBarRecord> {
  constructor(store: Store) {
    super(store, "goal_bars");
  }
}

/** Per-user state of the bot modules that is one document per user (`extensions.bot_state`). */
interface BotState {
  giveaways: Record<string, GiveawayState>;
  moderation: Record<string, ModerationSettings>;
  settings: Record<string, BotSettings>;
  /** Followers the service has seen follow (for giveaways open to followers): user -> `platform:id` -> ISO time. */
  followers: Record<string, Record<string, string>>;
}

/** Most followers remembered per user (oldest dropped first). */
const MAX_FOLLOWERS = 100_000;

/** The bot modules' per-user documents: the current giveaway, moderation settings, bot settings, known followers. */
export class BotStateRepository {
  readonly #state;

  constructor(store: Store) {
    this.#state = store.extension<BotState>("bot_state", () => ({ giveaways: {}, moderation: {}, settings: {}, followers: {} }));
  }

  giveaway(userId: number): GiveawayState | null {
    const state = this.#state.read().giveaways[String(userId)];
    return state ? structuredClone(state) : null;
  }

  saveGiveaway(userId: number, state: GiveawayState): void {
    this.#state.update((s) => void (s.giveaways[String(userId)] = structuredClone(state)));
  }

  moderation(userId: number): ModerationSettings | null {
    const settings = this.#state.read().moderation[String(userId)];
    return settings ? structuredClone(settings) : null;
  }

  saveModeration(userId: number, settings: ModerationSettings): void {
    this.#state.update((s) => void (s.moderation[String(userId)] = structuredClone(settings)));
  }

  settings(userId: number): BotSettings | null {
    const settings = this.#state.read().settings[String(userId)];
    return settings ? { ...settings } : null;
  }

  saveSettings(userId: number, settings: BotSettings): void {
    this.#state.update((s) => void (s.settings[String(userId)] = { ...settings }));
  }

  isFollower(userId: number, platform: string, platformUserId: string): boolean {
    return Object.hasOwn(this.#state.read().followers[String(userId)] ?? {}, `${platform}:${platformUserId}`);
  }

  addFollower(userId: number, platform: string, platformUserId: string): void {
    this.#state.update((s) => {
      const followers = (s.followers[String(userId)] ??= {});
      followers[`${platform}:${platformUserId}`] = timestamp();
      const keys = Object.keys(followers);
      if (keys.length > MAX_FOLLOWERS) delete followers[keys[0] as string];
    });
  }
}
