import type { ChatEvent } from "../../../chat/event.js";
import type { BotAnswer, BotChatLine, BotChatResult, BotModule, BotModuleContext, BotModuleRoute } from "../../runtime/bot-module.js";
import { PERMISSION_LEVELS, permissionLevelOf } from "../../permission-levels.js";
import { isInGroups } from "../exemptions.js";
import { BOT_MODULE_ERROR_CODES, BotModuleError, parseModuleConfig } from "../module-error.js";
import { drawWeighted } from "../giveaways/draw.js";
import type { RandomInt } from "../giveaways/draw.js";
import { queueMessage } from "./queue-messages.js";
import type { QueueMessageKey } from "./queue-messages.js";
import { QUEUE_LIMITS, emptyQueue, orderedEntries, queueSettingsSchema, queueStateSchema, queueView } from "./queue-record.js";
import type { QueueEntry, QueuePick, QueueState, QueueView } from "./queue-record.js";
import { queueRoutes } from "./queue-routes.js";

/** The key-value table of the queue (key {@link QUEUE_KEY}). */
export const QUEUE_TABLE = "queue";
/** The key holding a channel's whole queue. */
export const QUEUE_KEY = "state";
/** The `bot-module` event the `queue` browser sources redraw on (payload: a {@link QueueView}). */
export const QUEUE_UPDATED = "queue.updated";

/** Options of {@link QueueModule}. */
export interface QueueModuleOptions {
  /** Random integers for random picks (default `crypto.randomInt`). */
  random?: RandomInt;
}

/** What joining gave. */
export type QueueJoinOutcome =
  | { status: "joined" | "already"; position: number }
  | { status: "closed" }
  | { status: "full"; max: number };

/** How to pick: the next in line, or at random. */
export type QueuePickMode = "next" | "random";

const COMMANDS = new Set(["!join", "!leave", "!position", "!queue"]);

function sameViewer(a: { platform: string; user_platform_id: string }, b: { platform: string; user_platform_id: string }): boolean {
  return a.platform === b.platform && a.user_platform_id === b.user_platform_id;
}

function positionOf(state: QueueState, viewer: { platform: string; user_platform_id: string }): number {
  return orderedEntries(state).findIndex((e) => sameViewer(e, viewer)) + 1;
}

function readQueue(current: unknown): QueueState {
  return current === undefined ? emptyQueue() : parseModuleConfig("stored queue", queueStateSchema, current);
}

/**
 * The viewer queue (games with viewers): `!join [note]`, `!leave`, `!position`, `!queue` for
 * everyone; `!queue open|close|next [n]|random|clear` for moderators; the same through its API.
 * A channel's whole queue is one field of its key-value store, changed atomically, so every node
 * sharing the store sees the same queue; each change is published as `queue.updated`.
 */
export class QueueModule implements BotModule {
  readonly name = "queue";
  readonly stage = "command";
  readonly routes: readonly BotModuleRoute[];
  readonly sources = { queue: (channel: string, ctx: BotModuleContext) => this.view(channel, ctx) };
  readonly #random: RandomInt | undefined;

  constructor(options: QueueModuleOptions = {}) {
    this.#random = options.random;
    this.routes = queueRoutes(this);
  }

  async onChat(line: BotChatLine, ctx: BotModuleContext): Promise<BotChatResult | null> {
    const text = line.event.message.trim();
    const space = text.search(/\s/);
    const command = (space === -1 ? text : text.slice(0, space)).toLowerCase();
    if (!COMMANDS.has(command)) return null;
    const rest = space === -1 ? "" : text.slice(space + 1).trim();
    const language = ctx.language(line.channel);
    const say = (key: QueueMessageKey, params: Record<string, string | number> = {}): BotChatResult => ({
      handled: true,
      answers: [{ text: queueMessage(language, key, { user: line.event.user.username, ...params }), send_as: "say" }],
    });
    const viewer = { platform: line.event.platform, user_platform_id: line.event.user.platform_id };
    switch (command) {
      case "!join": {
        const outcome = await this.join(line.channel, line.event, rest, ctx);
        if (outcome.status === "closed") return say("closed");
        if (outcome.status === "full") return say("full", { max: outcome.max });
        return say(outcome.status, { position: outcome.position });
      }
      case "!leave":
        return say((await this.remove(line.channel, viewer, ctx)) ? "left" : "not_in");
      case "!position": {
        const state = await this.#read(line.channel, ctx);
        const position = positionOf(state, viewer);
        return position === 0 ? say("not_in") : say("position", { position, count: state.entries.length });
      }
      default:
        return { handled: true, answers: await this.#queueCommand(line, rest, ctx) };
    }
  }

  async #queueCommand(line: BotChatLine, rest: string, ctx: BotModuleContext): Promise<BotAnswer[]> {
    const language = ctx.language(line.channel);
    const answer = (text: string): BotAnswer[] => [{ text, send_as: "say" }];
    const [action = "", count = ""] = rest.toLowerCase().split(/\s+/);
    if (action === "") {
      const state = await this.#read(line.channel, ctx);
      const next = orderedEntries(state).slice(0, 3).map((e) => `@${e.username}`);
      return answer(
        state.open
          ? queueMessage(language, "status_open", { count: state.entries.length, next: next.length > 0 ? queueMessage(language, "next", { list: next.join(", ") }) : "" })
          : queueMessage(language, "status_closed", { count: state.entries.length }),
      );
    }
    // Changing the queue is for moderators and the broadcaster; anyone else gets the status only.
    if (permissionLevelOf(line.event) < PERMISSION_LEVELS.moderator) return this.#queueCommand(line, "", ctx);
    switch (action) {
      case "open":
      case "close": {
        await this.setOpen(line.channel, action === "open", ctx);
        return answer(queueMessage(language, action === "open" ? "opened" : "closed_now"));
      }
      case "next":
      case "random": {
        const n = count === "" ? 1 : Number(count);
        const picked = await this.pick(line.channel, action, Number.isInteger(n) ? Math.min(Math.max(n, 1), QUEUE_LIMITS.maxPick) : 1, ctx);
        return answer(picked.length === 0 ? queueMessage(language, "empty") : queueMessage(language, "picked", { list: picked.map(describePick).join(", ") }));
      }
      case "clear":
        await this.clear(line.channel, ctx);
        return answer(queueMessage(language, "cleared"));
      default:
        return answer(queueMessage(language, "usage"));
    }
  }

  /** The channel's queue. */
  async view(channel: string, ctx: BotModuleContext): Promise<QueueView> {
    return queueView(await this.#read(channel, ctx));
  }

  /** Adds the sender of `event` (with `note`) when the queue is open, has room and they are not in it. */
  async join(channel: string, event: ChatEvent, note: string, ctx: BotModuleContext): Promise<QueueJoinOutcome> {
    const entry: QueueEntry = {
      platform: event.platform,
      user_platform_id: event.user.platform_id,
      username: event.user.username,
      subscriber: isInGroups(event, ["subscriber"]),
      note: Array.from(note.replace(/\s+/g, " ")).slice(0, QUEUE_LIMITS.noteLength).join(""),
      joined_at: ctx.now(),
    };
    return this.#change(channel, ctx, (state): QueueJoinOutcome => {
      const position = positionOf(state, entry);
      if (position > 0) return { status: "already", position };
      if (!state.open) return { status: "closed" };
      if (state.entries.length >= state.settings.max_entries) return { status: "full", max: state.settings.max_entries };
      state.entries.push(entry);
      return { status: "joined", position: positionOf(state, entry) };
    });
  }

  /** Takes a viewer out of the queue; false when they were not in it. */
  async remove(channel: string, viewer: { platform: string; user_platform_id: string }, ctx: BotModuleContext): Promise<boolean> {
    return this.#change(channel, ctx, (state) => {
      const before = state.entries.length;
      state.entries = state.entries.filter((e) => !sameViewer(e, viewer));
      return state.entries.length < before;
    });
  }

  /** Opens or closes the queue (joining only; picking works either way), announcing it when set to. */
  async setOpen(channel: string, open: boolean, ctx: BotModuleContext): Promise<QueueView> {
    let changed = false;
    const state = await this.#change(channel, ctx, (s) => {
      changed = s.open !== open;
      s.open = open;
      return s;
    });
    if (changed && state.settings.announce) await ctx.announce(channel, queueMessage(ctx.language(channel), open ? "opened" : "closed_now"));
    return queueView(state);
  }

  /** Replaces the settings (fields left out keep their defaults). Throws `BotModuleError` naming bad fields. */
  async configure(channel: string, input: unknown, ctx: BotModuleContext): Promise<QueueView> {
    const settings = parseModuleConfig("queue settings", queueSettingsSchema, input);
    return queueView(
      await this.#change(channel, ctx, (state) => {
        state.settings = settings;
        return state;
      }),
    );
  }

  /**
   * Picks up to `count` viewers: the next in line, or at random (with subscriber priority, among the
   * waiting subscribers while there are any). Picked viewers leave the queue. Empty when nobody waits.
   */
  async pick(channel: string, mode: QueuePickMode, count: number, ctx: BotModuleContext): Promise<QueuePick[]> {
    if (!Number.isInteger(count) || count < 1 || count > QUEUE_LIMITS.maxPick) {
      throw new BotModuleError(BOT_MODULE_ERROR_CODES.invalidConfig, `count: must be an integer from 1 to ${QUEUE_LIMITS.maxPick}`);
    }
    const now = ctx.now();
    return this.#change(channel, ctx, (state) => {
      const order = orderedEntries(state);
      let chosen: QueueEntry[];
      if (mode === "next") chosen = order.slice(0, count);
      else {
        chosen = [];
        while (chosen.length < count) {
          const left = order.filter((e) => !chosen.includes(e));
          const pool = state.settings.subscriber_priority && left.some((e) => e.subscriber) ? left.filter((e) => e.subscriber) : left;
          const [one] = drawWeighted(pool.map((entry) => ({ entry, weight: 1 })), 1, this.#random);
          if (!one) break;
          chosen.push(one.entry);
        }
      }
      state.entries = state.entries.filter((e) => !chosen.includes(e));
      const picks: QueuePick[] = chosen.map((e) => ({ ...e, picked_at: now }));
      state.picked = [...[...picks].reverse(), ...state.picked].slice(0, QUEUE_LIMITS.pickedKept);
      return picks;
    });
  }

  /** Says who was picked (the API's picks; a chat command answers by itself), when the queue announces. */
  async announcePicks(channel: string, picks: readonly QueuePick[], ctx: BotModuleContext): Promise<void> {
    const state = await this.#read(channel, ctx);
    if (!state.settings.announce || picks.length === 0) return;
    await ctx.announce(channel, queueMessage(ctx.language(channel), "picked", { list: picks.map(describePick).join(", ") }));
  }

  /** Empties the queue (the picked list stays). */
  async clear(channel: string, ctx: BotModuleContext): Promise<QueueView> {
    return queueView(
      await this.#change(channel, ctx, (state) => {
        state.entries = [];
        return state;
      }),
    );
  }

  async #read(channel: string, ctx: BotModuleContext): Promise<QueueState> {
    return readQueue((await ctx.store.table(channel, QUEUE_TABLE))[QUEUE_KEY]);
  }

  /** Changes the stored queue atomically and publishes it; a malformed stored queue is left as it is. */
  async #change<T>(channel: string, ctx: BotModuleContext, change: (state: QueueState) => T): Promise<T> {
    let result: T | undefined;
    let after: QueueState | undefined;
    await ctx.store.update(channel, QUEUE_TABLE, QUEUE_KEY, (current) => {
      const state = readQueue(current);
      result = change(state);
      after = state;
      return state;
    });
    if (after) ctx.publish(channel, QUEUE_UPDATED, queueView(after));
    return result as T;
  }
}

/** `@name` with the note a viewer joined with. */
export function describePick(pick: QueuePick): string {
  return pick.note === "" ? `@${pick.username}` : `@${pick.username} (${pick.note})`;
}
