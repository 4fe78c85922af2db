import { randomUUID } from "node:crypto";
import type { ChatEvent } from "../../../chat/event.js";
import { isInGroups } from "../exemptions.js";
import { BOT_MODULE_ERROR_CODES, BotModuleError, parseModuleConfig } from "../module-error.js";
import { drawWeighted, type RandomInt } from "./draw.js";
import {
  GIVEAWAY_LIMITS,
  giveawayEntrySchema,
  giveawaySettingsSchema,
  giveawayStateSchema,
  type GiveawayEntry,
  type GiveawaySettingsInput,
  type GiveawayState,
  type GiveawayWinner,
} from "./giveaway-record.js";

/** Options of {@link GiveawayModule}. */
export interface GiveawayModuleOptions {
  /** Whether the sender follows the channel (for `eligibility: "followers"`); without it only the broadcaster, moderators, VIPs and subscribers count as followers. */
  isFollower?: (event: ChatEvent) => boolean | Promise<boolean>;
  /**
   * Called after every change of a channel's giveaway, to store it (the state is live: copy it, do
   * not change it); with {@link onEntry}, not for new entries.
   */
  onChange?: (channel: string, state: GiveawayState) => void;
  /**
   * Called for each new entry, to append it to what is stored (so a store need not rewrite every
   * entry per entry). Without it, {@link onChange} is called for entries too.
   */
  onEntry?: (channel: string, state: GiveawayState, entry: GiveawayEntry) => void;
  /** Random integers (default `crypto.randomInt`). */
  random?: RandomInt;
  /** Clock in milliseconds (default `Date.now`). */
  now?: () => number;
}

/** What became of a chat message for the giveaway. */
export type GiveawayEntryOutcome =
  | { status: "not_keyword" }
  | { status: "closed" }
  | { status: "not_eligible"; eligibility: string }
  | { status: "already_entered" }
  | { status: "full" }
  | { status: "entered"; entry: GiveawayEntry };

function entryKey(entry: { platform: string; user_platform_id: string }): string {
  return `${entry.platform}\u0000${entry.user_platform_id}`;
}

/**
 * Who entered a channel's giveaway: the entrants' ids per platform. An entry is looked up by its own
 * id string, where a key per entrant (`entryKey`) cost two more strings each (about 56 bytes and two
 * objects for the garbage collector to walk: 5 MB and 190,000 objects at 94,000 entries). Entries
 * share one string per platform name too, instead of each chat event's own copy.
 */
class Entrants {
  readonly #byPlatform = new Map<string, { platform: string; ids: Set<string> }>();

  static of(entries: GiveawayEntry[]): Entrants {
    const entrants = new Entrants();
    for (const entry of entries) entrants.add(entry);
    return entrants;
  }

  has(platform: string, id: string): boolean {
    return this.#byPlatform.get(platform)?.ids.has(id) === true;
  }

  /** Adds the entry's entrant and points its `platform` at the one string kept for that name. */
  add(entry: GiveawayEntry): void {
    let bucket = this.#byPlatform.get(entry.platform);
    if (bucket === undefined) this.#byPlatform.set(entry.platform, (bucket = { platform: entry.platform, ids: new Set() }));
    entry.platform = bucket.platform;
    bucket.ids.add(entry.user_platform_id);
  }
}

function stateError(message: string): BotModuleError {
  return new BotModuleError(BOT_MODULE_ERROR_CODES.giveawayState, message);
}

/**
 * The giveaway of each channel (one at a time; the last one stays readable after closing until
 * the next opens). Winners are drawn with `crypto.randomInt`, weighted by tickets, without drawing
 * anyone twice; a reroll replaces one winner with someone not drawn before.
 */
export class GiveawayModule {
  readonly #giveaways = new Map<string, GiveawayState>();
  readonly #entered = new Map<string, Entrants>();
  readonly #options: GiveawayModuleOptions;
  readonly #now: () => number;

  constructor(options: GiveawayModuleOptions = {}) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Loads a stored giveaway (after a restart). Throws `BotModuleError` when the stored state is malformed. */
  restore(channel: string, state: unknown): void {
    const parsed = parseModuleConfig("stored giveaway", giveawayStateSchema, state);
    this.#giveaways.set(channel, parsed);
    this.#entered.set(channel, Entrants.of(parsed.entries));
  }

  /**
   * Adds entries stored by someone else (another node sharing the store) to the channel's giveaway,
   * without calling `onEntry`; entrants already in are skipped. Returns how many were added.
   * Throws `BotModuleError` when an entry is malformed.
   */
  addStoredEntries(channel: string, entries: readonly unknown[]): number {
    const state = this.#giveaways.get(channel);
    const entered = this.#entered.get(channel);
    if (state === undefined || entered === undefined) return 0;
    let added = 0;
    for (const input of entries) {
      const entry = parseModuleConfig("stored giveaway entry", giveawayEntrySchema, input);
      if (entered.has(entry.platform, entry.user_platform_id)) continue;
      entered.add(entry);
      state.entries.push(entry);
      added++;
    }
    return added;
  }

  /** How many entries the channel's giveaway holds (0 when there is none). */
  entryCount(channel: string): number {
    return this.#giveaways.get(channel)?.entries.length ?? 0;
  }

  /** The channel's current (or last) giveaway, or null. */
  get(channel: string): GiveawayState | null {
    const state = this.#giveaways.get(channel);
    return state === undefined ? null : structuredClone(state);
  }

  /** Opens a new giveaway; throws when one is still open. */
  open(channel: string, input: GiveawaySettingsInput): GiveawayState {
    const settings = parseModuleConfig("giveaway", giveawaySettingsSchema, input);
    if (this.#giveaways.get(channel)?.status === "open") throw stateError("a giveaway is already open: close it first");
    const state: GiveawayState = { id: randomUUID(), settings, status: "open", opened_at: this.#now(), closed_at: null, entries: [], winners: [] };
    this.#giveaways.set(channel, state);
    this.#entered.set(channel, new Entrants());
    return structuredClone(this.#changed(channel, state));
  }

  /** Closes the open giveaway (no more entries); throws when none is open. */
  close(channel: string): GiveawayState {
    const state = this.#giveaways.get(channel);
    if (state?.status !== "open") throw stateError("no giveaway is open");
    state.status = "closed";
    state.closed_at = this.#now();
    return structuredClone(this.#changed(channel, state));
  }

  /**
   * Handles a chat message: when its first word is the keyword of the open giveaway and the sender
   * may enter, adds one entry (weighted for subscribers). Messages that are not the keyword cost one
   * map lookup and one compare.
   */
  async enter(event: ChatEvent): Promise<GiveawayEntryOutcome> {
    const state = this.#giveaways.get(event.channel.id);
    if (state === undefined) return { status: "not_keyword" };
    const keyword = state.settings.keyword.toLowerCase();
    const message = event.message.trimStart();
    if (message.slice(0, keyword.length).toLowerCase() !== keyword || /\S/.test(message.charAt(keyword.length))) return { status: "not_keyword" };
    if (state.status !== "open") return { status: "closed" };
    const entered = this.#entered.get(event.channel.id) as Entrants;
    if (entered.has(event.platform, event.user.platform_id)) return { status: "already_entered" };
    if (!(await this.#eligible(event, state.settings.eligibility))) return { status: "not_eligible", eligibility: state.settings.eligibility };
    if (entered.has(event.platform, event.user.platform_id)) return { status: "already_entered" };
    if (state.entries.length >= Math.min(state.settings.max_entries, GIVEAWAY_LIMITS.maxEntries) || state.status !== "open") return { status: "full" };
    const subscriber = isInGroups(event, ["subscriber"]);
    const entry: GiveawayEntry = {
      platform: event.platform,
      user_platform_id: event.user.platform_id,
      username: event.user.username,
      weight: subscriber ? state.settings.subscriber_weight : 1,
      entered_at: this.#now(),
    };
    entered.add(entry);
    state.entries.push(entry);
    if (this.#options.onEntry) this.#options.onEntry(event.channel.id, state, entry);
    else this.#changed(event.channel.id, state);
    return { status: "entered", entry };
  }

  /**
   * Draws `count` winners among the entries not drawn before (open or closed giveaway). Returns the
   * new winners; throws when nobody is left to draw.
   */
  draw(channel: string, count = 1): GiveawayWinner[] {
    const state = this.#giveaways.get(channel);
    if (state === undefined) throw stateError("there is no giveaway to draw from");
    if (!Number.isInteger(count) || count < 1 || count > GIVEAWAY_LIMITS.maxWinnersPerDraw) {
      throw new BotModuleError(BOT_MODULE_ERROR_CODES.invalidConfig, `count: must be an integer from 1 to ${GIVEAWAY_LIMITS.maxWinnersPerDraw}`);
    }
    const drawn = new Set(state.winners.map(entryKey));
    const candidates = state.entries.filter((entry) => !drawn.has(entryKey(entry)));
    if (candidates.length === 0) throw stateError(state.entries.length === 0 ? "nobody entered the giveaway" : "every entrant has been drawn already");
    const now = this.#now();
    const winners = drawWeighted(candidates, count, this.#options.random).map(
      (entry): GiveawayWinner => ({ platform: entry.platform, user_platform_id: entry.user_platform_id, username: entry.username, drawn_at: now, rerolled: false }),
    );
    state.winners.push(...winners);
    this.#changed(channel, state);
    return structuredClone(winners);
  }

  /**
   * Replaces a winner (who did not answer, for example): marks them `rerolled` and draws one new
   * winner among entrants never drawn. Throws when the winner is unknown or nobody is left.
   */
  reroll(channel: string, winner: { platform: string; user_platform_id: string }): GiveawayWinner {
    const state = this.#giveaways.get(channel);
    const target = state?.winners.find((w) => !w.rerolled && entryKey(w) === entryKey(winner));
    if (state === undefined || target === undefined) throw stateError("no such winner to reroll");
    const [replacement] = this.draw(channel, 1) as [GiveawayWinner];
    target.rerolled = true;
    this.#changed(channel, state);
    return replacement;
  }

  /** Forgets a channel's giveaway. */
  removeChannel(channel: string): void {
    this.#giveaways.delete(channel);
    this.#entered.delete(channel);
  }

  async #eligible(event: ChatEvent, eligibility: GiveawayState["settings"]["eligibility"]): Promise<boolean> {
    if (eligibility === "everyone") return true;
    if (isInGroups(event, ["broadcaster", "subscriber"])) return true;
    if (eligibility === "subscribers") return false;
    if (isInGroups(event, ["moderator", "vip"])) return true;
    return (await this.#options.isFollower?.(event)) ?? false;
  }

  #changed(channel: string, state: GiveawayState): GiveawayState {
    this.#options.onChange?.(channel, state);
    return state;
  }
}
