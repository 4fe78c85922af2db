import { randomUUID } from "node:crypto";
import type { BotAnswer, BotChatLine, BotChatResult, BotModule, BotModuleContext, BotModuleRoute } from "../../runtime/bot-module.js";
import { PERMISSION_LEVELS, permissionLevelOf } from "../../permission-levels.js";
import { parseModuleConfig } from "../module-error.js";
import type { BotLanguage } from "../system/bot-messages.js";
import { pollMessage } from "./poll-messages.js";
import { POLL_LIMITS, pollInputSchema, pollStateSchema, pollView } from "./poll-record.js";
import type { PollInput, PollStartOutcome, PollState, PollView } from "./poll-record.js";
import { pollRoutes } from "./poll-routes.js";

/** The key-value table of polls: keys {@link POLL_CURRENT} and {@link POLL_HISTORY}. */
export const POLLS_TABLE = "polls";
/** The current (or last) poll of a channel. */
export const POLL_CURRENT = "current";
/** The ended polls before it, newest first (views, without the voters). */
export const POLL_HISTORY = "history";
/** The `bot-module` event the `poll` browser sources redraw on (payload: a {@link PollView}). */
export const POLL_UPDATED = "poll.updated";

/** Options of {@link PollModule}. */
export interface PollModuleOptions {
  /** Platforms whose plugins are asked for the platform's own poll (default `["twitch"]`). */
  nativePlatforms?: readonly string[];
}

/** What starting a poll gave. */

function voterKey(platform: string, userId: string): string {
  return `${platform}\u0000${userId}`;
}

function readPoll(current: unknown): PollState | null {
  return current === undefined ? null : parseModuleConfig("stored poll", pollStateSchema, current);
}

function platformName(platform: string): string {
  return platform.charAt(0).toUpperCase() + platform.slice(1);
}

/** Reads a platform's poll results: `{status, choices: [{votes}]}` of a `poll_end`/`poll_results` answer. */
function nativeResults(data: Readonly<Record<string, unknown>> | undefined): { ended: boolean; votes: number[] } | null {
  const choices = data?.["choices"];
  if (!Array.isArray(choices)) return null;
  const votes = choices.map((c: unknown) => {
    const n = c !== null && typeof c === "object" ? (c as { votes?: unknown }).votes : 0;
    return typeof n === "number" && Number.isInteger(n) && n >= 0 ? n : 0;
  });
  return { ended: data?.["status"] === "ended", votes };
}

/**
 * Polls: the platform's own poll where its plugin offers one and the token allows it (Twitch), a
 * chat poll (`!vote 1`) on every other platform, one tally of both. `!poll` shows the standings;
 * moderators `!poll start Title | a | b` and `!poll end`; the same through its API. The poll ends
 * at its time (checked every tick, and at each late vote); every change is published as
 * `poll.updated` for the `poll` browser sources.
 */
export class PollModule implements BotModule {
  readonly name = "polls";
  readonly stage = "command";
  readonly routes: readonly BotModuleRoute[];
  readonly sources = { poll: (channel: string, ctx: BotModuleContext) => this.current(channel, ctx) };
  readonly #native: readonly string[];
  /** Channels with an open poll on this node, to end them on time and read the platforms' votes. */
  readonly #open = new Set<string>();

  constructor(options: PollModuleOptions = {}) {
    this.#native = options.nativePlatforms ?? ["twitch"];
    this.routes = pollRoutes(this);
  }

  async load(channel: string, ctx: BotModuleContext): Promise<void> {
    const poll = readPoll((await ctx.store.table(channel, POLLS_TABLE))[POLL_CURRENT]);
    if (poll?.status === "open") this.#open.add(channel);
  }

  forget(channel: string): void {
    this.#open.delete(channel);
  }

  async tick(ctx: BotModuleContext): Promise<void> {
    for (const channel of [...this.#open]) {
      try {
        const poll = await this.#read(channel, ctx);
        if (poll?.status !== "open") this.#open.delete(channel);
        else if (ctx.now() >= poll.ends_at) await this.end(channel, ctx);
        else if (poll.native.some((n) => n.status === "running")) await this.#refreshNative(channel, poll, ctx);
      } catch (err) {
        ctx.log.error({ err, channel }, "poll tick failed");
      }
    }
  }

  async onChat(line: BotChatLine, ctx: BotModuleContext): Promise<BotChatResult | null> {
    const text = line.event.message.trim();
    const lower = text.toLowerCase();
    const isVote = lower === "!vote" || lower.startsWith("!vote ");
    if (!isVote && lower !== "!poll" && !lower.startsWith("!poll ")) return null;
    const language = ctx.language(line.channel);
    const user = line.event.user.username;
    const answer = (value: string): BotChatResult => ({ handled: true, answers: [{ text: value, send_as: "say" }] });
    if (isVote) {
      const outcome = await this.vote(line.channel, line.event.platform, line.event.user.platform_id, text.slice(5).trim(), ctx);
      switch (outcome.status) {
        case "counted":
          return { handled: true, answers: [] };
        case "none":
          return answer(pollMessage(language, "none"));
        case "over":
          return answer(pollMessage(language, "over"));
        case "native":
          return answer(pollMessage(language, "vote_native", { user, platform: platformName(line.event.platform) }));
        case "full":
          return answer(pollMessage(language, "full", { user }));
        default:
          return answer(pollMessage(language, "vote_usage", { user, count: outcome.count }));
      }
    }
    const rest = text.slice(5).trim();
    const action = rest.split(/\s+/)[0]?.toLowerCase() ?? "";
    if (action === "" || permissionLevelOf(line.event) < PERMISSION_LEVELS.moderator) {
      const poll = await this.current(line.channel, ctx);
      return answer(poll?.status === "open" ? statusText(language, poll) : pollMessage(language, "none"));
    }
    if (action === "end") {
      const ended = await this.end(line.channel, ctx);
      if (!ended) return answer(pollMessage(language, "none"));
      return { handled: true, answers: ended.announce ? [] : [{ text: resultText(language, ended.poll), send_as: "say" }] };
    }
    const parts = rest.slice(action.length).split("|").map((p) => p.trim());
    const parsed = pollInputSchema.safeParse({ title: parts[0] ?? "", choices: parts.slice(1) });
    if (action !== "start" || !parsed.success) return answer(pollMessage(language, "usage"));
    const started = await this.start(line.channel, parsed.data, ctx);
    if (!started.started) return answer(pollMessage(language, "already_open"));
    return { handled: true, answers: parsed.data.announce ? [] : [{ text: startText(language, started.poll), send_as: "say" } satisfies BotAnswer] };
  }

  /** The current (or last) poll of the channel, or null. */
  async current(channel: string, ctx: BotModuleContext): Promise<PollView | null> {
    const poll = await this.#read(channel, ctx);
    return poll ? pollView(poll) : null;
  }

  /** The ended polls before the current one, newest first. */
  async history(channel: string, ctx: BotModuleContext): Promise<PollView[]> {
    const stored = (await ctx.store.table(channel, POLLS_TABLE))[POLL_HISTORY];
    return Array.isArray(stored) ? (stored as PollView[]) : [];
  }

  /**
   * Starts a poll: stored at once (chat votes count from now), then each native platform's plugin
   * is asked for its own poll; where it cannot (no plugin there, a token without the scope, limits
   * of the platform), that platform votes in chat. Throws `BotModuleError` naming bad fields.
   */
  async start(channel: string, input: PollInput, ctx: BotModuleContext): Promise<PollStartOutcome> {
    const settings = parseModuleConfig("poll", pollInputSchema, input);
    const now = ctx.now();
    const poll: PollState = {
      id: randomUUID(),
      title: settings.title,
      choices: settings.choices.map((title) => ({ title, votes: 0, native_votes: 0 })),
      status: "open",
      opened_at: now,
      ends_at: now + settings.duration_seconds * 1000,
      ended_at: null,
      native: [],
      native_unavailable: [],
      votes: {},
      announce: settings.announce,
    };
    let previous: PollState | null = null;
    let started = false;
    await ctx.store.update(channel, POLLS_TABLE, POLL_CURRENT, (current) => {
      previous = readPoll(current);
      if (previous?.status === "open" && previous.ends_at > now) return current;
      started = true;
      return poll;
    });
    if (!started) return { started: false, reason: "already_open" };
    const before = previous as PollState | null;
    if (before) await this.#archive(channel, before, ctx);
    this.#open.add(channel);
    if (settings.native) {
      for (const platform of this.#native) {
        const result = await ctx.platformAction(channel, platform, { type: "poll_start", title: poll.title, choices: settings.choices, duration_seconds: settings.duration_seconds });
        const pollId = result.result === "done" ? result.data?.["poll_id"] : undefined;
        if (typeof pollId === "string" && pollId !== "") poll.native.push({ platform, poll_id: pollId, status: "running", votes: [] });
        else poll.native_unavailable.push({ platform, reason: result.result === "unavailable" ? result.reason : result.result === "failed" ? result.error : "no poll id" });
      }
      await this.#change(channel, ctx, (state) => {
        if (state.id !== poll.id) return;
        state.native = poll.native;
        state.native_unavailable = poll.native_unavailable;
      });
    }
    const view = (await this.current(channel, ctx)) ?? pollView(poll);
    ctx.publish(channel, POLL_UPDATED, view);
    if (settings.announce) await ctx.announce(channel, startText(ctx.language(channel), view));
    return { started: true, poll: view };
  }

  /** A chat vote (`!vote 2`): the viewer's last vote counts. */
  async vote(
    channel: string,
    platform: string,
    userId: string,
    choice: string,
    ctx: BotModuleContext,
  ): Promise<{ status: "counted" | "none" | "over" | "native" | "full" } | { status: "usage"; count: number }> {
    const poll = await this.#read(channel, ctx);
    if (!poll || poll.status !== "open") return { status: "none" };
    if (ctx.now() >= poll.ends_at) {
      await this.end(channel, ctx);
      return { status: "over" };
    }
    if (poll.native.some((n) => n.platform === platform && n.status === "running")) return { status: "native" };
    const index = /^\d{1,2}$/.test(choice) ? Number(choice) - 1 : -1;
    if (index < 0 || index >= poll.choices.length) return { status: "usage", count: poll.choices.length };
    const key = voterKey(platform, userId);
    let status: "counted" | "full" | "none" = "none";
    await this.#change(channel, ctx, (state) => {
      if (state.id !== poll.id || state.status !== "open") return;
      const before = state.votes[key];
      if (before === undefined && Object.keys(state.votes).length >= POLL_LIMITS.maxVoters) {
        status = "full";
        return;
      }
      const previous = before === undefined ? undefined : state.choices[before];
      if (previous) previous.votes--;
      const chosen = state.choices[index];
      if (chosen) chosen.votes++;
      state.votes[key] = index;
      status = "counted";
    });
    return { status };
  }

  /**
   * Ends the open poll: the platforms' own polls are ended and their final votes added, the result
   * is published and announced. Null when no poll is open.
   */
  async end(channel: string, ctx: BotModuleContext): Promise<{ poll: PollView; announce: boolean } | null> {
    let ended: PollState | null = null;
    const now = ctx.now();
    await this.#change(channel, ctx, (state) => {
      if (state.status !== "open") return;
      state.status = "ended";
      state.ended_at = Math.min(now, state.ends_at);
      ended = state;
    }, false);
    this.#open.delete(channel);
    const poll = ended as PollState | null;
    if (!poll) return null;
    for (const native of poll.native) {
      const result = await ctx.platformAction(channel, native.platform, { type: "poll_end", poll_id: native.poll_id });
      const results = result.result === "done" ? nativeResults(result.data) : null;
      if (!results) ctx.log.warn({ channel, platform: native.platform, result }, "the platform's poll did not give its final votes");
      await this.#change(channel, ctx, (state) => {
        const entry = state.native.find((n) => n.poll_id === native.poll_id);
        if (state.id !== poll.id || !entry) return;
        entry.status = "ended";
        if (results) applyNativeVotes(state, native.poll_id, results.votes);
      }, false);
    }
    const view = (await this.current(channel, ctx)) ?? pollView(poll);
    ctx.publish(channel, POLL_UPDATED, view);
    if (poll.announce) await ctx.announce(channel, resultText(ctx.language(channel), view));
    return { poll: view, announce: poll.announce };
  }

  /** Reads the platforms' running polls and publishes the standings when they moved. */
  async #refreshNative(channel: string, poll: PollState, ctx: BotModuleContext): Promise<void> {
    for (const native of poll.native.filter((n) => n.status === "running")) {
      const result = await ctx.platformAction(channel, native.platform, { type: "poll_results", poll_id: native.poll_id });
      const results = result.result === "done" ? nativeResults(result.data) : null;
      if (!results) continue;
      await this.#change(channel, ctx, (state) => {
        if (state.id !== poll.id) return;
        applyNativeVotes(state, native.poll_id, results.votes);
      });
    }
  }

  async #archive(channel: string, poll: PollState, ctx: BotModuleContext): Promise<void> {
    await ctx.store.update(channel, POLLS_TABLE, POLL_HISTORY, (current) => [pollView(poll), ...(Array.isArray(current) ? current : [])].slice(0, POLL_LIMITS.history));
  }

  async #read(channel: string, ctx: BotModuleContext): Promise<PollState | null> {
    return readPoll((await ctx.store.table(channel, POLLS_TABLE))[POLL_CURRENT]);
  }

  /** Changes the stored poll atomically (nothing when there is none) and publishes it unless told not to. */
  async #change(channel: string, ctx: BotModuleContext, change: (state: PollState) => void, publish = true): Promise<void> {
    let after: PollState | null = null;
    await ctx.store.update(channel, POLLS_TABLE, POLL_CURRENT, (current) => {
      const state = readPoll(current);
      if (!state) return current;
      change(state);
      after = state;
      return state;
    });
    const changed = after as PollState | null;
    if (publish && changed) ctx.publish(channel, POLL_UPDATED, pollView(changed));
  }
}

/** Keeps one platform poll's latest votes and sums every platform's into the choices. */
function applyNativeVotes(state: PollState, pollId: string, votes: readonly number[]): void {
  const native = state.native.find((n) => n.poll_id === pollId);
  if (!native) return;
  native.votes = state.choices.map((_, i) => votes[i] ?? 0);
  state.choices.forEach((choice, i) => {
    choice.native_votes = state.native.reduce((sum, n) => sum + (n.votes[i] ?? 0), 0);
  });
}

function startText(language: BotLanguage, poll: PollView): string {
  const native = poll.native.map((n) => platformName(n.platform));
  return pollMessage(language, "started", {
    title: `${poll.title} —`,
    choices: poll.choices.map((c) => `${c.number}) ${c.title}`).join(", "),
    count: poll.choices.length,
    native: native.length > 0 ? pollMessage(language, "native", { platforms: native.join(", ") }) : "",
  });
}

function statusText(language: BotLanguage, poll: PollView): string {
  return pollMessage(language, "status", {
    title: `${poll.title} —`,
    standings: poll.choices.map((c) => `${c.number}) ${c.title}: ${c.votes}`).join(", "),
    count: poll.choices.length,
  });
}

/** How a poll ended, in words. */
export function resultText(language: BotLanguage, poll: PollView): string {
  const title = `${poll.title} —`;
  const leaders = poll.choices.filter((c) => poll.leading.includes(c.number));
  const [first] = leaders;
  if (!first) return pollMessage(language, "no_votes", { title });
  if (leaders.length > 1) return pollMessage(language, "tie", { title, winners: leaders.map((c) => c.title).join(", "), votes: first.votes });
  return pollMessage(language, "won", { title, winner: first.title, votes: first.votes, percent: first.percent });
}
