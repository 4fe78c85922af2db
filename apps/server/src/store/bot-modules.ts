import type { BotSettings, GiveawayEntry, GiveawayState, GoalBar, ModerationSettings, Timer } from "@ovation/core";
import { ChunkedList } from "./chunked-list.js";
import { Store } from "./store.js";
import { splitSharedDocument, userKey } from "./per-user-extensions.js";
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

/** The layout before records were stored per user: one shared document of every user's records. */
interface SharedRecordList<T> {
  next_id: number;
  records?: T[];
}

/**
 * Shared list logic of the timer and goal-bar repositories. Each user's records are a document of
 * their own (`extensions.<kind>.<userId>`), so one user's writes never rewrite another's; ids come
 * from the store's sequence `<kind>`. A store still holding the shared document of every
 * user's records is split at start.
 */
class UserRecordList<T extends { id: number; user_id: number; created_at: string; updated_at: string }> {
  readonly #store: Store;
  readonly #kind: string;

  constructor(store: Store, kind: string) {
    this.#store = store;
    this.#kind = kind;
    splitSharedDocument<SharedRecordList<T>, T[]>(store, kind, (shared) => {
      if (shared.records === undefined) return null;
      const perUser = new Map<number, T[]>();
      for (const record of shared.records ?? []) {
        const list = perUser.get(record.user_id) ?? [];
        list.push(record);
        perUser.set(record.user_id, list);
      }
      return { rest: { next_id: shared.next_id }, perUser };
    });
  }

  #records(userId: number) {
    return this.#store.extension<T[]>(userKey(this.#kind, userId), () => []);
  }

  create(userId: number, fields: Omit<T, "id" | "user_id" | "created_at" | "updated_at">): T {
    // The store's sequence `<kind>` (raised at load past `extensions.<kind>.next_id`, which older
    // versions kept): shared between nodes when several run on one PostgreSQL database.
    const id = this.#store.update((data) => Store.nextId(data, this.#kind), {});
    return this.#records(userId).update((records) => {
      const now = timestamp();
      const record = { ...structuredClone(fields), id, user_id: userId, created_at: now, updated_at: now } as T;
      records.push(record);
      return structuredClone(record);
    });
  }

  getForUser(userId: number, id: number): T | null {
    const record = this.#records(userId).read().find((r) => r.id === id);
    return record ? structuredClone(record) : null;
  }

  listForUser(userId: number): T[] {
    return this.#records(userId).read().map((r) => structuredClone(r));
  }

  listAll(): T[] {
    return this.#store
      .extensionKeys(`${this.#kind}.`)
      .flatMap((key) => this.#store.extension<T[]>(key, () => []).read())
      .sort((a, b) => a.id - b.id)
      .map((r) => structuredClone(r));
  }

  update(userId: number, id: number, change: (record: T) => void): T | null {
    return this.#records(userId).update((records) => {
      const record = records.find((r) => r.id === id);
      if (!record) return null;
      change(record);
      record.updated_at = timestamp();
      return structuredClone(record);
    });
  }

  remove(userId: number, id: number): boolean {
    return this.#records(userId).update((records) => {
      const index = records.findIndex((r) => r.id === id);
      if (index < 0) return false;
      records.splice(index, 1);
      return true;
    });
  }
}

/** Timers of users' bots (`extensions.timers.<userId>`). */
export class TimersRepository extends UserRecordList<TimerRecord> {
  constructor(store: Store) {
    super(store, "timers");
  }
}

/** Goal bars of users with their progress (`extensions.goal_bars.<userId>`). */
export class GoalBarsRepository extends UserRecordList<GoalBarRecord> {
  constructor(store: Store) {
    super(store, "goal_bars");
  }
}

/** One user's state of the bot modules (`extensions.bot_state.<userId>`). */
interface BotState {
  /** The current (or last) giveaway without its entries (they are in `giveaway_entries.<n>.<userId>`). */
  giveaway?: GiveawayState;
  moderation?: ModerationSettings;
  settings?: BotSettings;
  /**
   * Followers as earlier versions kept them (`platform:id` -> ISO time); moved at start to the
   * buckets `followers.<b>.<userId>`, so this stays empty.
   */
  followers: Record<string, string>;
}

/** The layout before per-user documents: every user's state in one document, keyed by user id. */
interface SharedBotState {
  giveaways?: Record<string, GiveawayState>;
  moderation?: Record<string, ModerationSettings>;
  settings?: Record<string, BotSettings>;
  followers?: Record<string, Record<string, string>>;
}

/**
 * The extension kind of giveaway entries: the current giveaway's entries of user U are the chunk
 * documents `giveaway_entries.<n>.<U>` (n = 0, 1...; the user's id last, like every per-user document).
 */
export const GIVEAWAY_ENTRIES_KIND = "giveaway_entries";

/** Most followers remembered per user (oldest dropped first). */
const MAX_FOLLOWERS = 100_000;
/**
 * Known followers of user U live in FOLLOWER_BUCKETS documents `followers.<b>.<U>`, each follower in
 * the bucket its key hashes to: a follow rewrites one bucket of at most MAX_FOLLOWERS /
 * FOLLOWER_BUCKETS followers (about 20 KB), whatever the user holds.
 */
export const FOLLOWERS_KIND = "followers";
const FOLLOWER_BUCKETS = 256;
const PER_BUCKET = Math.ceil(MAX_FOLLOWERS / FOLLOWER_BUCKETS);

/** The bucket of a follower key (FNV-1a: stable across versions and nodes). */
function bucketOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % FOLLOWER_BUCKETS;
}

/**
 * The bot modules' state of each user, one document per user: the current giveaway (without its
 * entries), moderation settings, bot settings. What grows lives in documents of its own, each
 * written alone: the giveaway's entries in chunks of 100 (`giveaway_entries.<n>.<userId>`), known
 * followers in hashed buckets (`followers.<b>.<userId>`). A store still holding the shared
 * document of every user is split at start, and entries or followers kept inside the user's
 * document by earlier versions move out.
 */
export class BotStateRepository {
  readonly #store: Store;
  readonly #entryLists = new Map<number, ChunkedList<GiveawayEntry>>();

  constructor(store: Store) {
    this.#store = store;
    splitSharedDocument<SharedBotState, BotState>(store, "bot_state", (shared) => {
      const perUser = new Map<number, BotState>();
      const of = (id: string): BotState | null => {
        const userId = Number(id);
        if (!Number.isSafeInteger(userId)) return null;
        let state = perUser.get(userId);
        if (state === undefined) {
          state = { followers: {} };
          perUser.set(userId, state);
        }
        return state;
      };
      const move = <K extends keyof BotState>(from: Record<string, BotState[K]> | undefined, field: K) => {
        for (const [id, value] of Object.entries(from ?? {})) {
          const state = of(id);
          if (state) state[field] = value;
        }
      };
      move(shared.giveaways, "giveaway");
      move(shared.moderation, "moderation");
      move(shared.settings, "settings");
      move(shared.followers, "followers");
      return { rest: null, perUser };
    });
    this.#moveEntriesOut();
    this.#moveFollowersOut();
  }

  /** Followers stored inside `bot_state.<userId>` (earlier versions) move to their buckets, once. */
  #moveFollowersOut(): void {
    for (const key of this.#store.extensionKeys("bot_state.")) {
      const userId = Number(key.slice("bot_state.".length));
      const followers = (this.#store.data.extensions[key] as BotState | undefined)?.followers ?? {};
      if (!Number.isSafeInteger(userId) || Object.keys(followers).length === 0) continue;
      for (const [follower, at] of Object.entries(followers)) this.#rememberFollower(userId, follower, at);
      this.#state(userId).update((s) => void (s.followers = {}));
    }
  }

  #followerKey(userId: number, follower: string): string {
    return `${FOLLOWERS_KIND}.${bucketOf(follower)}.${userId}`;
  }

  /** Adds (or refreshes) one follower in its bucket, dropping the bucket's oldest past its share of the cap. */
  #rememberFollower(userId: number, follower: string, at: string): void {
    const key = this.#followerKey(userId, follower);
    this.#store.update(
      (data) => {
        const bucket = (data.extensions[key] ??= {}) as Record<string, string>;
        delete bucket[follower];
        bucket[follower] = at;
        const keys = Object.keys(bucket);
        if (keys.length > PER_BUCKET) delete bucket[keys[0] as string];
      },
      { extensions: [key] },
    );
  }

  /** Giveaway entries stored inside `bot_state.<userId>` (earlier versions) move to their chunks, once. */
  #moveEntriesOut(): void {
    for (const key of this.#store.extensionKeys("bot_state.")) {
      const userId = Number(key.slice("bot_state.".length));
      const giveaway = (this.#store.data.extensions[key] as BotState | undefined)?.giveaway;
      if (!Number.isSafeInteger(userId) || !Array.isArray(giveaway?.entries) || giveaway.entries.length === 0) continue;
      const list = this.#entries(userId);
      list.clear();
      for (const entry of giveaway.entries) list.append(entry);
      this.#state(userId).update((s) => void (s.giveaway = { ...giveaway, entries: [] }));
    }
  }

  #entries(userId: number): ChunkedList<GiveawayEntry> {
    let list = this.#entryLists.get(userId);
    if (list === undefined) {
      list = new ChunkedList<GiveawayEntry>(this.#store, (chunk) => `${GIVEAWAY_ENTRIES_KIND}.${chunk}.${userId}`);
      this.#entryLists.set(userId, list);
    }
    return list;
  }

  #state(userId: number) {
    return this.#store.extension<BotState>(userKey("bot_state", userId), () => ({ followers: {} }));
  }

  /** The current (or last) giveaway with its entries, or null. */
  giveaway(userId: number): GiveawayState | null {
    const state = this.#state(userId).read().giveaway;
    if (!state) return null;
    const appended = this.#entries(userId).read();
    if (appended.length === 0) return structuredClone(state);
    return { ...structuredClone(state), entries: [...(Array.isArray(state.entries) ? state.entries : []), ...appended] };
  }

  /**
   * Stores a giveaway's state but its entries (appended one by one with {@link appendGiveawayEntry}).
   * A giveaway with a new id (a new one opened) drops the previous one's entries.
   */
  saveGiveaway(userId: number, state: GiveawayState): void {
    const { entries: _entries, ...rest } = state;
    const stored = this.#state(userId).read().giveaway;
    if (stored !== undefined && stored.id !== state.id) this.#entries(userId).clear();
    this.#state(userId).update((s) => void (s.giveaway = { ...structuredClone(rest), entries: [] }));
  }

  /** Appends one entry of the current giveaway: writes only the last chunk of entries, whatever their number. */
  appendGiveawayEntry(userId: number, entry: GiveawayEntry): void {
    this.#entries(userId).append(entry);
  }

  /** The current giveaway's stored entries from position `start` on (what another node appended). */
  giveawayEntriesFrom(userId: number, start: number): GiveawayEntry[] {
    return this.#entries(userId).readFrom(start);
  }

  /** How many entries the current giveaway holds in the store. */
  giveawayEntryCount(userId: number): number {
    return this.#entries(userId).length;
  }

  moderation(userId: number): ModerationSettings | null {
    const settings = this.#state(userId).read().moderation;
    return settings ? structuredClone(settings) : null;
  }

  saveModeration(userId: number, settings: ModerationSettings): void {
    this.#state(userId).update((s) => void (s.moderation = structuredClone(settings)));
  }

  settings(userId: number): BotSettings | null {
    const settings = this.#state(userId).read().settings;
    return settings ? { ...settings } : null;
  }

  saveSettings(userId: number, settings: BotSettings): void {
    this.#state(userId).update((s) => void (s.settings = { ...settings }));
  }

  isFollower(userId: number, platform: string, platformUserId: string): boolean {
    const follower = `${platform}:${platformUserId}`;
    const bucket = this.#store.data.extensions[this.#followerKey(userId, follower)] as Record<string, string> | undefined;
    return bucket !== undefined && Object.hasOwn(bucket, follower);
  }

  /** Remembers a follow: rewrites one bucket of at most 391 followers, whatever the user holds. */
  addFollower(userId: number, platform: string, platformUserId: string): void {
    this.#rememberFollower(userId, `${platform}:${platformUserId}`, timestamp());
  }
}
