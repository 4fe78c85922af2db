import {
  BotRuntime,
  CHAT_PATTERN_LIMITS,
  CommandRegex,
  GiveawayModule,
  LexiconToxicityScorer,
  ModerationModule,
  SystemCommands,
  TimerModule,
  botMessage,
  enforceVerdict,
  goalIncrement,
  storedNumber,
} from "@ovation/core";
import type { BotModule, BotModuleContext, BotSettings, ChatEvent, GiveawayState, HostAction, ModerationAction, ModerationRule, ModerationSettings, ModerationVerdict, OutgoingMessage } from "@ovation/core";
import type { Logger } from "pino";
import { GIVEAWAY_ENTRIES_KIND } from "../store/bot-modules.js";
import type { GoalBarRecord, TimerRecord } from "../store/bot-modules.js";
import type { StoreKeyValueStore } from "../store/key-value.js";
import { usersOfDocuments } from "../store/partitions.js";
import { answerCounterKeyword } from "./counter-keywords.js";
import type { Repositories } from "../store/repositories.js";
import type { BotOutput } from "./bot-output.js";
import type { CommandHost } from "./command-host.js";
import { linkedAccount } from "./points-wallets.js";
import { registeredBotModules } from "./registered-modules.js";

/** The key-value table counters live in (`db('counters')` in templates; the counters API). */
export const COUNTERS_TABLE = "counters";
/** How often timers are checked. */
const TICK_MS = 15_000;
/** Moderation outcomes remembered per user for the API. */
const RECENT_MODERATION = 50;

/** Where the bot modules tell the browser sources about changes (the alert hub's rooms). */
export interface BotModuleEvents {
  goalBarUpdated(userId: number, goal: GoalBarRecord): void;
  overlaySettings(userId: number, settings: BotSettings): void;
  /** A bot module's change for the user's browser sources (`BotModuleContext.publish`). */
  moduleEvent(userId: number, event: string, payload: unknown): void;
}

/** One auto-moderation outcome, newest first in {@link BotModulesHost.recentModeration}. */
export interface ModerationOutcome {
  at: string;
  platform: string;
  user_platform_id: string;
  username: string;
  rule: ModerationRule;
  action: ModerationAction["type"];
  detail: string;
  /** `done`; `unavailable` when the platform plugin cannot take the action; `failed` when it tried and failed. */
  result: "done" | "unavailable" | "failed";
}

/** Options of {@link BotModulesHost}. */
export interface BotModulesHostOptions {
  /** Clock in milliseconds (default `Date.now`); tests move it to make timers due. */
  now?: () => number;
  /** The bot runtime's modules (default {@link registeredBotModules}). */
  modules?: readonly BotModule[];
}

/**
 * The server's bot modules: timers, giveaways, auto-moderation and system commands for every user
 * (channel id = user id), loaded from the store and kept there; plus goal-bar progress. Chat goes
 * through {@link handleChat} (moderation first; a message that breaks a rule runs nothing else),
 * notifications through {@link onNotification}; {@link start} checks timers every 15 s.
 */
export class BotModulesHost {
  readonly timers: TimerModule;
  readonly giveaways: GiveawayModule;
  readonly moderation: ModerationModule;
  readonly system: SystemCommands;
  /** The bot runtime's modules (engagement and the modules to come), run after the system commands. */
  readonly runtime: BotRuntime;
  readonly #kv: StoreKeyValueStore;
  readonly #recent = new Map<number, ModerationOutcome[]>();
  /** Per plugin and channel: settles once the latest message's answer is out. */
  readonly #answerOrder = new Map<string, Promise<void>>();
  #output: BotOutput | null = null;
  #events: BotModuleEvents | null = null;
  #interval: NodeJS.Timeout | null = null;

  constructor(
    private readonly repos: Repositories,
    private readonly commands: CommandHost,
    private readonly logger: Logger,
    options: BotModulesHostOptions = {},
  ) {
    const runtime = commands.runtime;
    this.#kv = repos.kv;
    this.timers = new TimerModule({ templates: runtime, isLive: (channel) => runtime.isLive(channel), ...(options.now ? { now: options.now } : {}) });
    this.giveaways = new GiveawayModule({
      isFollower: (event) => repos.botState.isFollower(Number(event.channel.id), event.platform, event.user.platform_id),
      onChange: (channel, state) => repos.botState.saveGiveaway(Number(channel), state),
      onEntry: (channel, _state, entry) => repos.botState.appendGiveawayEntry(Number(channel), entry),
      ...(options.now ? { now: options.now } : {}),
    });
    this.moderation = new ModerationModule({ scorer: new LexiconToxicityScorer(), budget: commands.chatBudget });
    this.system = new SystemCommands({
      commands: (channel) => runtime.commands(channel),
      onChange: (channel, settings) => {
        repos.botState.saveSettings(Number(channel), settings);
        this.#events?.overlaySettings(Number(channel), settings);
      },
    });
    this.runtime = new BotRuntime(this.#moduleContext(options.now ?? Date.now), options.modules ?? registeredBotModules());
    for (const user of repos.users.list()) this.reload(user.id);
    // Timers and bot state changed by another node on the same database (several nodes on PostgreSQL).
    // Entries another node appended are added as they are (a full reload would re-read every entry).
    repos.store.onRemoteChange(({ documents }) => {
      const reloaded = new Set(usersOfDocuments(documents, ["timers", "bot_state"]));
      for (const userId of reloaded) if (repos.users.get(userId)) this.reload(userId);
      for (const userId of usersOfDocuments(documents, [GIVEAWAY_ENTRIES_KIND])) if (!reloaded.has(userId) && repos.users.get(userId)) this.#catchUpEntries(userId);
    });
  }

  /** What the runtime's modules see of the server: the store, clock, language, sending and the browser sources. */
  #moduleContext(now: () => number): BotModuleContext {
    const runtime = this.commands.runtime;
    return {
      store: this.#kv,
      now,
      language: (channel) => this.system.language(channel),
      isLive: (channel) => runtime.isLive(channel),
      announce: async (channel, text, platform) => {
        for (const target of this.#output?.channelsOf(channel) ?? []) {
          if (platform !== undefined && target.platform !== platform) continue;
          await this.#output?.send(target.plugin, { channel: target.channel, text, send_as: "say", reply_to: null }).catch((err: unknown) => this.logger.warn({ err, channel }, "bot module message not sent"));
        }
      },
      platformAction: async (channel, platform, action) => {
        const output = this.#output;
        const target = output?.channelsOf(channel).find((c) => c.platform === platform);
        if (!output || !target) return { result: "unavailable", reason: `the bot is not in this channel on ${platform}` };
        if (!output.platformAction) return { result: "unavailable", reason: "the platform plugins offer no platform actions" };
        return output.platformAction(target.plugin, target.channel, action);
      },
      publish: (channel, event, payload) => this.#events?.moduleEvent(Number(channel), event, payload),
      log: this.logger,
      linkedAccount: (platform, platformUserId) => linkedAccount(this.repos, platform, platformUserId),
      streamInfo: async (_channel, platform, platformChannelId) => {
        const info = await this.commands.lookups?.(platform)?.channel(platformChannelId);
        return info ? { title: info.title, game: info.game } : null;
      },
    };
  }

  /** Connects the modules to the platform plugins (sending, moderating) and to the browser sources. */
  attach(output: BotOutput | null, events: BotModuleEvents | null): void {
    if (output) this.#output = output;
    if (events) this.#events = events;
  }

  /** Starts checking timers every 15 s. */
  start(): void {
    this.#interval ??= setInterval(() => void this.tick(), TICK_MS).unref();
  }

  /** Stops the timer checks. */
  stop(): void {
    if (this.#interval) clearInterval(this.#interval);
    this.#interval = null;
  }

  /** Loads a user's timers, giveaway, moderation and bot settings from the store; bad stored data is logged and skipped. */
  reload(userId: number): void {
    const channel = String(userId);
    this.reloadTimers(userId);
    const giveaway = this.repos.botState.giveaway(userId);
    try {
      if (giveaway) this.giveaways.restore(channel, giveaway);
    } catch (err) {
      this.logger.error({ err, userId }, "stored giveaway could not be loaded");
    }
    const moderation = this.repos.botState.moderation(userId);
    try {
      if (moderation) this.moderation.set(channel, moderation);
    } catch (err) {
      this.logger.error({ err, userId }, "stored moderation settings could not be loaded; loading them without the patterns over the limits");
      if (moderation) this.#loadModerationWithinLimits(channel, moderation);
    }
    this.system.restore(channel, this.repos.botState.settings(userId));
    void this.runtime.load(channel);
  }

  /** Adds the giveaway entries another node stored since this node's last one. */
  #catchUpEntries(userId: number): void {
    const channel = String(userId);
    try {
      this.giveaways.addStoredEntries(channel, this.repos.botState.giveawayEntriesFrom(userId, this.giveaways.entryCount(channel)));
    } catch (err) {
      this.logger.error({ err, userId }, "stored giveaway entries could not be loaded");
    }
  }

  /**
   * Loads stored moderation settings keeping only the patterns that compile within the limits
   * (in order, while they fit the channel's total): settings saved before the limits stay in force.
   */
  #loadModerationWithinLimits(channel: string, settings: ModerationSettings): void {
    const patterns: string[] = [];
    let program = 0;
    for (const source of settings.bad_words.patterns) {
      try {
        const size = CommandRegex.compile(source).programSize;
        if (program + size > CHAT_PATTERN_LIMITS.moderationProgramTotal) continue;
        program += size;
        patterns.push(source);
      } catch {
        // Left out: the log above names the settings.
      }
    }
    try {
      this.moderation.set(channel, { ...settings, bad_words: { ...settings.bad_words, patterns } });
    } catch (err) {
      this.logger.error({ err, channel }, "stored moderation settings could not be loaded");
    }
  }

  /** Reloads a user's timers (after a change through the API); a stored timer that no longer compiles is skipped. */
  reloadTimers(userId: number): void {
    const valid = this.repos.timers.listForUser(userId).filter((record) => {
      try {
        this.timers.prepare(timerInput(record));
        return true;
      } catch (err) {
        this.logger.error({ err, userId, timer: record.name }, "stored timer could not be loaded; skipped");
        return false;
      }
    });
    this.timers.setTimers(String(userId), valid.map(timerInput));
  }

  /** Validated and stored moderation settings of a user (replacing the previous ones). */
  setModeration(userId: number, input: unknown): ModerationSettings {
    const settings = this.moderation.set(String(userId), input);
    this.repos.botState.saveModeration(userId, settings);
    return settings;
  }

  /**
   * Per platform channel of the user: for each moderation rule, the actions it may take and
   * whether the platform plugin can take them (`warn` needs only sending). A rule whose action the
   * plugin lacks is `available: false` there and is logged as `unavailable` when it triggers.
   */
  moderationAvailability(userId: number): { plugin: string; platform: string; rules: Record<ModerationRule, { actions: string[]; available: boolean }> }[] {
    const settings = this.moderation.settings(String(userId)) ?? this.moderation.prepare({}).settings;
    const output = this.#output;
    if (!output) return [];
    return output.channelsOf(String(userId)).map(({ plugin, platform }) => {
      const support = output.moderationTarget(plugin).support();
      const can = (type: ModerationAction["type"]) => type === "warn" || (type === "delete" ? support.deleteMessage : support[type]);
      const thresholds = settings.toxicity.thresholds;
      const toxicity = (["warn", "delete", "timeout", "ban"] as const).filter((type) => thresholds[type] !== null);
      const rule = (types: ModerationAction["type"][]) => ({ actions: types, available: types.every(can) });
      return {
        plugin,
        platform,
        rules: {
          caps: rule([settings.caps.action.type]),
          symbols: rule([settings.symbols.action.type]),
          links: rule([settings.links.action.type]),
          bad_words: rule([settings.bad_words.action.type]),
          length: rule([settings.length.action.type]),
          toxicity: rule(toxicity),
        },
      };
    });
  }

  /** The latest auto-moderation outcomes of a user, newest first. */
  recentModeration(userId: number): ModerationOutcome[] {
    return [...(this.#recent.get(userId) ?? [])];
  }

  /**
   * One chat message through the modules, then the commands. Returns what to send back on the
   * plugin the message came from. A message that breaks a moderation rule is acted on (or warned
   * about) and goes no further.
   */
  handleChat(event: ChatEvent, plugin: string): Promise<HostAction[]> {
    // Messages are handled at once, side by side, but their answers come out in the order the
    // messages came in on each channel: a quick system command must not overtake a sandboxed one.
    const key = `${plugin}\u0000${event.channel.id}`;
    const previous = this.#answerOrder.get(key);
    const work = this.#handleChat(event, plugin);
    const ordered = previous === undefined ? work : previous.then(() => work);
    const settled = ordered.then(
      () => undefined,
      () => undefined,
    );
    this.#answerOrder.set(key, settled);
    void settled.then(() => {
      if (this.#answerOrder.get(key) === settled) this.#answerOrder.delete(key);
    });
    return ordered;
  }

  async #handleChat(event: ChatEvent, plugin: string): Promise<HostAction[]> {
    const userId = Number(event.channel.id);
    this.timers.recordChat(event);
    const verdict = await this.moderation.check(event);
    if (verdict !== null) return this.#enforce(event, plugin, verdict);
    const entry = await this.giveaways.enter(event);
    if (entry.status !== "not_keyword") return [];
    const system = this.system.handle(event);
    const actions: HostAction[] = [];
    if (system) actions.push(toHostAction(system.reply));
    else {
      const modules = await this.runtime.chat({ event, plugin, channel: event.channel.id });
      if (modules.handled) return modules.answers;
      const answer = (await this.commands.runtime.handle(event)) ?? (await answerCounterKeyword(this.repos.counters, event));
      if (answer) actions.push(toHostAction(answer));
      await this.refreshCounterGoals(userId);
    }
    return actions;
  }

  /** Sends the timers that are due and refreshes counter goals; what the 15 s interval runs. */
  async tick(): Promise<void> {
    const { posts, failures } = await this.timers.tick();
    for (const failure of failures) this.logger.warn(failure, "timer message failed to render");
    for (const post of posts) {
      const target = this.#output?.channelsOf(post.message.channel.id).find((c) => c.platform === post.platform);
      if (!target) continue;
      await this.#output?.send(target.plugin, { ...post.message, channel: target.channel }).catch((err: unknown) => this.logger.warn({ err, timer: post.timer }, "timer message not sent"));
    }
    for (const user of this.repos.users.list()) await this.refreshCounterGoals(user.id);
    await this.runtime.tick();
  }

  /** Says the bot's own message `text` on every channel of the user (giveaway announcements). */
  async announce(userId: number, text: string): Promise<void> {
    for (const target of this.#output?.channelsOf(String(userId)) ?? []) {
      await this.#output?.send(target.plugin, { channel: target.channel, text, send_as: "say", reply_to: null }).catch((err: unknown) => this.logger.warn({ err, userId }, "announcement not sent"));
    }
  }

  /** Announces a giveaway change in the channel's language, when the giveaway says to. */
  async announceGiveaway(userId: number, state: GiveawayState, what: "opened" | "closed" | "winners", winners: readonly string[] = []): Promise<void> {
    if (!state.settings.announce) return;
    const language = this.system.language(String(userId));
    const text =
      what === "opened"
        ? botMessage(language, "giveaway_opened", { keyword: state.settings.keyword })
        : what === "closed"
          ? botMessage(language, "giveaway_closed", { count: state.entries.length })
          : winners.length > 0
            ? botMessage(language, "giveaway_winners", { winners: winners.map((w) => `@${w}`).join(", ") })
            : botMessage(language, "giveaway_no_entries");
    await this.announce(userId, text);
  }

  /**
   * A platform notification of a user: moves the goal bars of the matching kind (until they end),
   * and remembers followers for giveaways open to followers.
   */
  onNotification(userId: number, type: string, platform: string, data: Readonly<Record<string, unknown>>, platformUserId: string | null, username: string | null = null): void {
    if (type === "follow" && platformUserId) this.repos.botState.addFollower(userId, platform, platformUserId);
    void this.runtime.alert({ channel: String(userId), type, platform, platformUserId, username, data });
    const now = Date.now();
    for (const goal of this.repos.goalBars.listForUser(userId)) {
      if (goal.ends_at !== null && Date.parse(goal.ends_at) <= now) continue;
      const step = goalIncrement(goal.kind, type, data);
      if (step <= 0) continue;
      const updated = this.repos.goalBars.update(userId, goal.id, (record) => void (record.current = Math.min(1e12, record.current + step)));
      if (updated) this.#events?.goalBarUpdated(userId, updated);
    }
  }

  /** The current value of a counter (`counters` table of the user's key-value store); 0 when unset. */
  async counterValue(userId: number, name: string): Promise<number> {
    const value = (await this.#kv.table(String(userId), COUNTERS_TABLE))[name];
    if (value !== null && typeof value === "object" && "value" in value) return storedNumber((value as { value: unknown }).value);
    return storedNumber(value);
  }

  /** Brings counter goals in line with their counters; emits the ones that moved. */
  async refreshCounterGoals(userId: number): Promise<void> {
    for (const goal of this.repos.goalBars.listForUser(userId)) {
      if (goal.kind !== "counter" || goal.counter === null) continue;
      if (goal.ends_at !== null && Date.parse(goal.ends_at) <= Date.now()) continue;
      const value = await this.counterValue(userId, goal.counter);
      if (value === goal.current) continue;
      const updated = this.repos.goalBars.update(userId, goal.id, (record) => void (record.current = value));
      if (updated) this.#events?.goalBarUpdated(userId, updated);
    }
  }

  async #enforce(event: ChatEvent, plugin: string, verdict: ModerationVerdict): Promise<HostAction[]> {
    const userId = Number(event.channel.id);
    const target = this.#output?.moderationTarget(plugin) ?? null;
    const { result, warning, error } = await enforceVerdict(event, verdict, target, this.system.language(event.channel.id));
    const list = this.#recent.get(userId) ?? [];
    list.unshift({
      at: new Date().toISOString(),
      platform: event.platform,
      user_platform_id: event.user.platform_id,
      username: event.user.username,
      rule: verdict.rule,
      action: verdict.action.type,
      detail: verdict.detail,
      result,
    });
    this.#recent.set(userId, list.slice(0, RECENT_MODERATION));
    const log = { err: error ?? undefined, userId, rule: verdict.rule, action: verdict.action.type, result, platform: event.platform };
    if (result === "done") this.logger.info(log, "auto-moderation");
    else this.logger.warn(log, result === "unavailable" ? "auto-moderation: the platform cannot take this action" : "auto-moderation action failed");
    return warning === null ? [] : [{ text: warning, send_as: "say" }];
  }
}

function toHostAction(message: OutgoingMessage): HostAction {
  return { text: message.text, send_as: message.send_as, reply_to: message.reply_to };
}

/** The timer fields of a stored timer. */
export function timerInput(record: TimerRecord) {
  return {
    name: record.name,
    message: record.message,
    interval_minutes: record.interval_minutes,
    min_chat_lines: record.min_chat_lines,
    platforms: [...record.platforms],
    send_as: record.send_as,
    enabled: record.enabled,
  };
}
