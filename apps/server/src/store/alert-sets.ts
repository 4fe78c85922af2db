import { buildDefaultAlertSet, convertPixelFontSizes } from "@ovation/core";
import { Store } from "./store.js";
import { timestamp } from "./records.js";
import type { AlertSetRecord } from "./records.js";

/** Keys of an alert set that the record owns; everything else of a config is the engine document. */
export const ALERT_SET_RECORD_KEYS: readonly string[] = ["id", "user_id", "active", "version", "name", "created_at", "updated_at"];

/** The engine document of a full config (AE4 set or AE3 document): the config without the record's keys. */
export function engineConfig(full: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(full)) if (!ALERT_SET_RECORD_KEYS.includes(key)) out[key] = value;
  return out;
}

/**
 * Key of `meta` recording that stored AE4 sets use relative font sizes. Stores written before the
 * unit changed held pixels; at load, once, every `font_size` of their AE4 sets is divided by the
 * layout base size (36 px) and the key is set, so loading again changes nothing. AE3 documents
 * keep pixels (their format); the AE3 -> AE4 migration converts them.
 */
export const FONT_SIZE_UNIT_META = "alert_font_size_unit";

/** Name of the alert set every new user gets. */
export const DEFAULT_ALERT_SET_NAME = "Default alerts";

/** Alert sets. At most one set per user is active; the first set a user gets is active. */
export class AlertSetsRepository {
  /** Runs the one-time font size migration (see {@link FONT_SIZE_UNIT_META}). */
  constructor(private readonly store: Store) {
    if (store.data.meta[FONT_SIZE_UNIT_META] === "relative") return;
    store.update((data, touch) => {
      const owners = new Set<number>();
      for (const set of data.alert_sets) if (set.version === 4 && convertPixelFontSizes(set.config) > 0) owners.add(set.user_id);
      data.meta[FONT_SIZE_UNIT_META] = "relative";
      touch({ meta: true, users: [...owners] });
    });
  }

  /**
   * Stores a new set; it becomes active when `active` is true or the user has no active set.
   * `newUser`: the user was just created and has no set yet, so the others are not looked at (they
   * are every user's: looking would make creating many users cost the square of their number).
   */
  create(input: { user_id: number; name: string; version: number; config: Record<string, unknown>; active?: boolean }, newUser = false): AlertSetRecord {
    return this.store.update((data) => {
      const now = timestamp();
      const hasActive = !newUser && data.alert_sets.some((s) => s.user_id === input.user_id && s.active);
      const active = input.active === true || !hasActive;
      if (active && !newUser) for (const s of data.alert_sets) if (s.user_id === input.user_id) s.active = false;
      const record: AlertSetRecord = {
        id: Store.nextId(data, "alert_sets"),
        user_id: input.user_id,
        name: input.name,
        version: input.version,
        active,
        config: input.config,
        created_at: now,
        updated_at: now,
      };
      data.alert_sets.push(record);
      return structuredClone(record);
    }, { users: [input.user_id] });
  }

  /**
   * Gives a user core's default AE4 alert set (every catalog type enabled), active when they have
   * none active (`newUser`: a user just created, who has none; see {@link create}).
   */
  createDefault(userId: number, newUser = false): AlertSetRecord {
    return this.create({ user_id: userId, name: DEFAULT_ALERT_SET_NAME, version: 4, config: engineConfig(buildDefaultAlertSet({ id: 1, user_id: userId })) }, newUser);
  }

  /** The set with this id owned by this user, or null. */
  getForUser(userId: number, id: number): AlertSetRecord | null {
    const r = this.store.data.alert_sets.find((s) => s.id === id && s.user_id === userId);
    return r ? structuredClone(r) : null;
  }

  /** The user's active set, or null. */
  activeForUser(userId: number): AlertSetRecord | null {
    const r = this.store.data.alert_sets.find((s) => s.user_id === userId && s.active);
    return r ? structuredClone(r) : null;
  }

  /**
   * The user's active set without a copy, for hot read paths (triggering an alert). The result
   * is the stored object: never change it.
   */
  peekActive(userId: number): Readonly<AlertSetRecord> | null {
    return this.store.data.alert_sets.find((s) => s.user_id === userId && s.active) ?? null;
  }

  /** The sets of a user, by id. */
  listForUser(userId: number): AlertSetRecord[] {
    return this.store.data.alert_sets.filter((s) => s.user_id === userId).map((s) => structuredClone(s));
  }

  /** Replaces name, version and/or config; null when not found. */
  update(userId: number, id: number, changes: { name?: string; version?: number; config?: Record<string, unknown> }): AlertSetRecord | null {
    return this.store.update((data) => {
      const r = data.alert_sets.find((s) => s.id === id && s.user_id === userId);
      if (!r) return null;
      if (changes.name !== undefined) r.name = changes.name;
      if (changes.version !== undefined) r.version = changes.version;
      if (changes.config !== undefined) r.config = changes.config;
      r.updated_at = timestamp();
      return structuredClone(r);
    }, { users: [userId] });
  }

  /** Makes this set the user's only active set; null when not found. */
  activate(userId: number, id: number): AlertSetRecord | null {
    return this.store.update((data) => {
      const r = data.alert_sets.find((s) => s.id === id && s.user_id === userId);
      if (!r) return null;
      const now = timestamp();
      for (const s of data.alert_sets) {
        if (s.user_id !== userId) continue;
        const active = s.id === id;
        if (s.active !== active) {
          s.active = active;
          s.updated_at = now;
        }
      }
      return structuredClone(r);
    }, { users: [userId] });
  }

  /** Deletes a set; false when not found. Deleting the active set leaves the user without one. */
  remove(userId: number, id: number): boolean {
    return this.store.update((data) => {
      const index = data.alert_sets.findIndex((s) => s.id === id && s.user_id === userId);
      if (index < 0) return false;
      data.alert_sets.splice(index, 1);
      return true;
    }, { users: [userId] });
  }
}
