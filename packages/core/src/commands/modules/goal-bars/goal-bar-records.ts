import type { GoalBar, GoalBarKind } from "../../../goals/goal-bar.js";
import type { BotRouteErrorEntry } from "../route-errors.js";

/** What the goal-bar module reads of a stored goal bar. */
export interface StoredGoalBar {
  readonly id: number;
  readonly kind: GoalBarKind;
  /** The counter a `counter` goal follows. */
  readonly counter: string | null;
  /** ISO 8601; after it the goal stops moving. */
  readonly ends_at: string | null;
  /** The progress. */
  readonly current: number;
}

/** Where goal bars are kept (the server's repository; anything with these three calls). */
export interface GoalBarStore<G extends StoredGoalBar = StoredGoalBar> {
  /** The goal bars of a channel. */
  list(channel: string): readonly G[];
  /** Sets a goal bar's progress to `next(current)`; returns the stored goal bar, or null when it is gone. */
  setCurrent(channel: string, id: number, next: (current: number) => number): G | null;
  /** Every channel that may have goal bars (the tick brings their counter goals in line). */
  channels(): Iterable<string>;
  /**
   * Settles once every change made so far is stored; rejects when the write failed. With it a moved
   * goal bar is told to the browser sources only after its write (never one that was not stored).
   */
  persisted?(): Promise<void>;
}

/** A stored goal bar: its configuration, its progress (`current`), id and times (ISO 8601). */
export interface SavedGoalBar extends GoalBar {
  readonly id: number;
  current: number;
  readonly created_at: string;
  updated_at: string;
}

/** The fields a goal bar is created or replaced with: the configuration and the progress. */
export type GoalBarFields = GoalBar & { current: number };

/**
 * Where the goal bars' API keeps them (the server's repository): the module's {@link GoalBarStore}
 * plus reading one, creating, replacing and deleting. Ids are the store's, unique across channels;
 * a goal bar of another channel is not found.
 */
export interface GoalBarRecords<G extends SavedGoalBar = SavedGoalBar> extends GoalBarStore<G> {
  /** The channel's goal bar of that id, or null. */
  get(channel: string, id: number): G | null;
  /** Stores a new goal bar of the channel and returns it with its id and times. */
  create(channel: string, fields: GoalBarFields): G;
  /** Replaces a goal bar's configuration and progress; returns it, or null when it is gone. */
  replace(channel: string, id: number, fields: GoalBarFields): G | null;
  /** Deletes a goal bar; false when the channel has none of that id. */
  remove(channel: string, id: number): boolean;
  /** Settles once every change made so far is stored (browser sources hear of a change after that). */
  persisted(): Promise<void>;
}

/** Limits of the goal bars' API. */
export const GOAL_BAR_LIMITS = {
  /** Most goal bars per channel. */
  goalBars: 100,
  /** Most a goal's progress can reach. */
  progress: 1e12,
} as const;

/**
 * The goal bars' error codes with their status and message (the server's registry spreads them in,
 * and apps/server/README.md documents them).
 */
export const GOAL_BARS_ERROR_CODES = {
  OVATION_ERR_GOAL_BARS_NOT_FOUND: { status: 404, message: "No such goal bar.", description: "The goal bar does not exist or belongs to another user." },
} as const satisfies Readonly<Record<string, BotRouteErrorEntry>>;
