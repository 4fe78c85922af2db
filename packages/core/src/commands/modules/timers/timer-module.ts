import type { ChatChannel, ChatEvent } from "../../../chat/event.js";
import type { OutgoingMessage } from "../../../plugins/contract.js";
import { BOT_MODULE_ERROR_CODES, BotModuleError, parseModuleConfig } from "../module-error.js";
import { TIMER_LIMITS, timerSchema, type Timer, type TimerInput } from "./timer-record.js";

/** A timer message compiled once: `plain` is sent as it is; otherwise `compiled` is rendered. */
export interface CompiledMessage {
  plain: string | null;
  compiled: unknown;
}

/** How timers compile and render their messages: `CommandRuntime` fits (same sandbox as commands). */
export interface MessageTemplates {
  compileMessage(source: string, field: string): CompiledMessage;
  renderMessage(event: ChatEvent, record: Readonly<Record<string, unknown>>, compiled: CompiledMessage): Promise<string>;
}

/** Options of {@link TimerModule}. */
export interface TimerModuleOptions {
  templates: MessageTemplates;
  /** Whether a channel's stream is online (the command runtime's live state). */
  isLive: (channel: string) => boolean;
  /** Clock in milliseconds (default `Date.now`). */
  now?: () => number;
}

/** A timer message to send on one platform. */
export interface TimerPost {
  timer: string;
  platform: string;
  message: OutgoingMessage;
}

interface PlatformState {
  channel: ChatChannel;
  /** Chat lines seen since the timer last posted on this platform (capped). */
  lines: number;
  lastPostAt: number;
}

interface PreparedTimer {
  record: Timer;
  compiled: CompiledMessage;
  platforms: Map<string, PlatformState>;
}

/**
 * Timers of every channel (channel id = the Ovation user id). Feed it chat with {@link recordChat}
 * and call {@link tick} now and then (the server does every 15 s): it returns the messages due.
 * A timer's clock on a platform starts when the bot first hears chat there; the line count is per
 * timer and platform and resets when the timer posts. Nothing is posted while the stream is offline.
 */
export class TimerModule {
  readonly #channels = new Map<string, Map<string, PreparedTimer>>();
  readonly #templates: MessageTemplates;
  readonly #isLive: (channel: string) => boolean;
  readonly #now: () => number;

  constructor(options: TimerModuleOptions) {
    this.#templates = options.templates;
    this.#isLive = options.isLive;
    this.#now = options.now ?? Date.now;
  }

  /** Validates and compiles one timer without keeping it (what saving runs). Throws `BotModuleError` or `CommandError`. */
  prepare(input: unknown): { record: Timer; compiled: CompiledMessage } {
    const record = parseModuleConfig("timer", timerSchema, input);
    return { record, compiled: this.#templates.compileMessage(record.message, "message") };
  }

  /**
   * Replaces a channel's timers. A timer whose name stays keeps its line counts and clock. Throws
   * (and changes nothing) when one is invalid or two share a name.
   */
  setTimers(channel: string, inputs: readonly TimerInput[]): Timer[] {
    if (inputs.length > TIMER_LIMITS.timersPerBot) {
      throw new BotModuleError(BOT_MODULE_ERROR_CODES.invalidConfig, `a bot has at most ${TIMER_LIMITS.timersPerBot} timers`);
    }
    const previous = this.#channels.get(channel) ?? new Map<string, PreparedTimer>();
    const next = new Map<string, PreparedTimer>();
    for (const input of inputs) {
      const { record, compiled } = this.prepare(input);
      const key = record.name.toLowerCase();
      if (next.has(key)) throw new BotModuleError(BOT_MODULE_ERROR_CODES.invalidConfig, `two timers are named ${record.name}`);
      next.set(key, { record, compiled, platforms: previous.get(key)?.platforms ?? new Map() });
    }
    this.#channels.set(channel, next);
    return [...next.values()].map((timer) => timer.record);
  }

  /** Forgets a channel's timers. */
  removeChannel(channel: string): void {
    this.#channels.delete(channel);
  }

  /** Counts one chat line for the timers of the event's channel and platform. */
  recordChat(event: ChatEvent): void {
    const timers = this.#channels.get(event.channel.id);
    if (timers === undefined) return;
    for (const timer of timers.values()) {
      if (!this.#servesPlatform(timer.record, event.platform)) continue;
      const state = timer.platforms.get(event.platform);
      if (state === undefined) timer.platforms.set(event.platform, { channel: event.channel, lines: 1, lastPostAt: this.#now() });
      else {
        state.channel = event.channel;
        state.lines = Math.min(state.lines + 1, TIMER_LIMITS.maxChatLines);
      }
    }
  }

  /**
   * The timers due now, rendered: enabled, the channel live, `interval_minutes` passed since the
   * last post on that platform and at least `min_chat_lines` lines seen since. A due timer's clock
   * and count restart even when rendering fails (the failure is returned in `failures`), so a broken
   * template does not retry on every tick.
   */
  async tick(): Promise<{ posts: TimerPost[]; failures: { timer: string; platform: string; error: string }[] }> {
    const now = this.#now();
    const posts: TimerPost[] = [];
    const failures: { timer: string; platform: string; error: string }[] = [];
    for (const [channel, timers] of this.#channels) {
      if (!this.#isLive(channel)) continue;
      for (const timer of timers.values()) {
        if (!timer.record.enabled) continue;
        for (const [platform, state] of timer.platforms) {
          if (now - state.lastPostAt < timer.record.interval_minutes * 60_000 || state.lines < timer.record.min_chat_lines) continue;
          state.lastPostAt = now;
          state.lines = 0;
          try {
            const text = await this.#templates.renderMessage(timerEvent(state.channel, platform, now), timer.record, timer.compiled);
            if (text !== "") posts.push({ timer: timer.record.name, platform, message: { channel: state.channel, text, send_as: timer.record.send_as, reply_to: null } });
          } catch (error) {
            failures.push({ timer: timer.record.name, platform, error: error instanceof Error ? error.message : String(error) });
          }
        }
      }
    }
    return { posts, failures };
  }

  /** Lines counted and the last post time of each timer per platform (for the API). */
  status(channel: string): { name: string; platforms: { platform: string; lines: number; last_post_at: number }[] }[] {
    return [...(this.#channels.get(channel)?.values() ?? [])].map((timer) => ({
      name: timer.record.name,
      platforms: [...timer.platforms].map(([platform, state]) => ({ platform, lines: state.lines, last_post_at: state.lastPostAt })),
    }));
  }

  #servesPlatform(timer: Timer, platform: string): boolean {
    return timer.platforms.length === 0 || timer.platforms.includes(platform);
  }
}

/** The `event` variable of a timer template: an empty message from the channel itself. */
function timerEvent(channel: ChatChannel, platform: string, now: number): ChatEvent {
  return {
    id: `timer-${now}`,
    type: "message",
    timestamp: now,
    platform,
    user: { platform_id: channel.platform_id, username: channel.username, avatar_url: channel.avatar_url, color: null, badges: [] },
    channel,
    message: "",
    fragments: [],
    parent: null,
    attributes: { edited: false, accent: null, action: false, highlight: false },
  };
}
