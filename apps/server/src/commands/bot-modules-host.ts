import {
  BotRuntime,
  CustomCommandsBotModule,
  GiveawayModule,
  GiveawaysBotModule,
  GoalBarsBotModule,
  LexiconToxicityScorer,
  ModerationBotModule,
  ModerationModule,
  SystemBotModule,
  SystemCommands,
  TimerModule,
  TimersBotModule,
  counterValue,
  goalBarsRoutes,
} from "@ovation/core";
import type { BotModule, BotModuleContext, BotSettings, ChatEvent, HostAction, ModerationOutcome, ModerationSettings } from "@ovation/core";
import type { Logger } from "pino";
import { ApiError } from "../errors.js";
import { dryRunChatEvent } from "./dry-run-event.js";
import { GIVEAWAY_ENTRIES_KIND } from "../store/bot-modules.js";
import type { GoalBarRecord } from "../store/bot-modules.js";
import type { StoreKeyValueStore } from "../store/key-value.js";
import { usersOfDocuments } from "../store/partitions.js";
import type { Repositories } from "../store/repositories.js";
import type { BotOutput } from "./bot-output.js";
import type { CommandHost } from "./command-host.js";
import { commandsApi } from "./commands-api.js";
import { goalBarRecords } from "./goal-bar-records.js";
import { linkedAccount } from "./points-wallets.js";
import { botModuleOrder, registeredBotModules } from "./registered-modules.js";
import { timerRecords } from "./timer-records.js";

/** How often the modules tick (timers, counter goals, the modules' own ticks). */
const TICK_MS = 15_000;

/** Where the bot modules tell the browser sources about changes (the alert hub's rooms). */
export interface BotModuleEvents {
  goalBarUpdated(userId: number, goal: GoalBarRecord): void;
  overlaySettings(userId: number, settings: BotSettings): void;
  /** A bot module's change for the user's browser sources (`BotModuleContext.publish`). */
  moduleEvent(userId: number, event: string, payload: unknown): void;
}

/** Options of {@link BotModulesHost}. */
export interface BotModulesHostOptions {
  /** Clock in milliseconds (default `Date.now`); tests move it to make timers due. */
  now?: () => number;
  /**
   * The modules run after the system commands and before the custom commands (default
   * {@link registeredBotModules}: the engagement modules).
   */
  modules?: readonly BotModule[];
}

/**
 * The server's part of the bot runtime (`BotRuntime` of @ovation/core runs every module): storage
 * and wiring for every user (channel id = user id). It gives the built-in modules the store
 * (timers, giveaways, moderation, bot settings, goal bars through the repositories; counters and
 * the modules' tables through the key-value store), the platform plugins (sending, moderating,
 * platform actions) and the browser sources (events); loads each user's data at start and after a
 * change by another node; ticks every 15 s; and keeps each channel's answers in the order its
 * messages came. The order of the modules is in `registered-modules.ts`.
 */
export class BotModulesHost {
  readonly timers: TimerModule;
  readonly giveaways: GiveawayModule;
  readonly moderation: ModerationModule;
  readonly system: SystemCommands;
  /** Runs every module: the built-in ones and those of `registered-modules.ts`. */
  readonly runtime: BotRuntime;
  readonly #builtIn: {
    moderation: ModerationBotModule;
    timers: TimersBotModule;
    goalBars: GoalBarsBotModule<GoalBarRecord>;
    giveaways: GiveawaysBotModule;
    system: SystemBotModule;
    commands: CustomCommandsBotModule;
  };
  readonly #kv: StoreKeyValueStore;
  readonly #commandHost: CommandHost;
  /** Per plugin and channel: settles once the latest message's answer is out. */
  readonly #answerOrder = new Map<string, Promise<void>>();
  #output: BotOutput | null = null;
  #events: BotModuleEvents | null = null;
  #interval: NodeJS.Timeout | null = null;

  constructor(
    private readonly repos: Repositories,
    commands: CommandHost,
    private readonly logger: Logger,
    options: BotModulesHostOptions = {},
  ) {
    const runtime = commands.runtime;
    this.#commandHost = commands;
    const now = options.now ?? Date.now;
    this.#kv = repos.kv;
    this.timers = new TimerModule({ templates: runtime, isLive: (channel) => runtime.isLive(channel), now });
    this.giveaways = new GiveawayModule({
      isFollower: (event) => repos.botState.isFollower(Number(event.channel.id), event.platform, event.user.platform_id),
      onChange: (channel, state) => repos.botState.saveGiveaway(Number(channel), state),
      onEntry: (channel, _state, entry) => repos.botState.appendGiveawayEntry(Number(channel), entry),
      now,
    });
    this.moderation = new ModerationModule({ scorer: new LexiconToxicityScorer(), budget: commands.chatBudget });
    this.system = new SystemCommands({
      commands: (channel) => runtime.commands(channel),
      onChange: (channel, settings) => {
        repos.botState.saveSettings(Number(channel), settings);
        // The browser sources hear of a change once it is stored, never of one the store could not write.
        repos.store.persisted().then(
          () => this.#events?.overlaySettings(Number(channel), settings),
          (err: unknown) => logger.error({ err, channel }, "bot settings not stored; browser sources not told"),
        );
      },
    });
    const goalBarStore = goalBarRecords(repos);
    const goalBarUpdated = (channel: string, goal: GoalBarRecord) => this.#events?.goalBarUpdated(Number(channel), goal);
    const goalBars = new GoalBarsBotModule<GoalBarRecord>({ store: goalBarStore, onUpdated: goalBarUpdated, routes: goalBarsRoutes(goalBarStore, goalBarUpdated) });
    this.#builtIn = {
      moderation: new ModerationBotModule({
        moderation: this.moderation,
        target: (plugin) => this.#output?.moderationTarget(plugin) ?? null,
        stored: (channel) => repos.botState.moderation(Number(channel)),
        routes: {
          save: (channel, settings) => repos.botState.saveModeration(Number(channel), settings),
          channels: (channel) => this.#output?.channelsOf(channel) ?? [],
          dryRunEvent: (channel, message, writer) => {
            const user = repos.users.get(Number(channel));
            if (!user) throw new ApiError("OVATION_ERR_AUTH_UNAUTHENTICATED");
            return dryRunChatEvent(repos, user, message, writer);
          },
        },
      }),
      timers: new TimersBotModule({ timers: this.timers, records: timerRecords(repos.timers) }),
      goalBars,
      giveaways: new GiveawaysBotModule({ giveaways: this.giveaways, stored: (channel) => repos.botState.giveaway(Number(channel)), persisted: () => repos.store.persisted() }),
      system: new SystemBotModule({
        system: this.system,
        stored: (channel) => repos.botState.settings(Number(channel)),
        ownCommands: (channel) => repos.commands.listForUser(Number(channel)),
      }),
      commands: new CustomCommandsBotModule({
        runtime,
        afterChat: (channel, ctx) => goalBars.refreshCounters(channel, ctx),
        api: commandsApi(repos, commands, (channel, ctx) => goalBars.refreshCounters(channel, ctx)),
      }),
    };
    this.runtime = new BotRuntime(this.#moduleContext(now, runtime.isLive.bind(runtime)), botModuleOrder(this.#builtIn, options.modules ?? registeredBotModules()));
    for (const user of repos.users.list()) this.reload(user.id);
    // Timers and bot state changed by another node on the same database (several nodes on PostgreSQL).
    // Entries another node appended are added as they are (a full reload would re-read every entry).
    repos.store.onRemoteChange(({ documents }) => {
      const reloaded = new Set(usersOfDocuments(documents, ["timers", "bot_state"]));
      for (const userId of reloaded) if (repos.users.get(userId)) this.reload(userId);
      for (const userId of usersOfDocuments(documents, [GIVEAWAY_ENTRIES_KIND])) if (!reloaded.has(userId) && repos.users.get(userId)) this.#catchUpEntries(userId);
      // A channel's key-value tables changed on another node: modules read again what they hold of them (points settings).
      for (const key of documents) if (key.startsWith("kv:")) this.runtime.storeChanged(key.slice("kv:".length));
    });
  }

  /** What the modules see of the server: the store, clock, language, sending and the browser sources. */
  #moduleContext(now: () => number, isLive: (channel: string) => boolean): BotModuleContext {
    return {
      store: this.#kv,
      now,
      language: (channel) => this.system.language(channel),
      isLive,
      announce: async (channel, text, platform, sendAs = "say") => {
        for (const target of this.#output?.channelsOf(channel) ?? []) {
          if (platform !== undefined && target.platform !== platform) continue;
          await this.#output?.send(target.plugin, { channel: target.channel, text, send_as: sendAs, reply_to: null }).catch((err: unknown) => this.logger.warn({ err, channel }, "bot module message not sent"));
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
        const info = await this.#commandHost.lookups?.(platform)?.channel(platformChannelId);
        return info ? { title: info.title, game: info.game } : null;
      },
    };
  }

  /** Connects the modules to the platform plugins (sending, moderating) and to the browser sources. */
  attach(output: BotOutput | null, events: BotModuleEvents | null): void {
    if (output) this.#output = output;
    if (events) this.#events = events;
  }

  /** Starts the modules' tick every 15 s. */
  start(): void {
    this.#interval ??= setInterval(() => void this.tick(), TICK_MS).unref();
  }

  /** Stops the tick. */
  stop(): void {
    if (this.#interval) clearInterval(this.#interval);
    this.#interval = null;
  }

  /** Loads a user's data into every module (bad stored data is logged and skipped); the built-in modules load at once. */
  reload(userId: number): void {
    void this.runtime.load(String(userId));
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

  /** Validated and stored moderation settings of a user (replacing the previous ones). */
  setModeration(userId: number, input: unknown): ModerationSettings {
    const settings = this.moderation.set(String(userId), input);
    this.repos.botState.saveModeration(userId, settings);
    return settings;
  }

  /** The latest auto-moderation outcomes of a user, newest first. */
  recentModeration(userId: number): ModerationOutcome[] {
    return this.#builtIn.moderation.recent(String(userId));
  }

  /**
   * One chat message through the bot runtime (guards, observers, command modules: see
   * `registered-modules.ts`). Returns what to send back on the plugin the message came from.
   */
  handleChat(event: ChatEvent, plugin: string): Promise<HostAction[]> {
    // Messages are handled at once, side by side, but their answers come out in the order the
    // messages came in on each channel: a quick system command must not overtake a sandboxed one.
    const key = `${plugin}\u0000${event.channel.id}`;
    const previous = this.#answerOrder.get(key);
    const work = this.runtime.chat({ event, plugin, channel: event.channel.id }).then(({ answers }): HostAction[] => answers);
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

  /** Every module's tick (timers due, counter goals, the modules' own); what the 15 s interval runs. */
  async tick(): Promise<void> {
    await this.runtime.tick();
  }

  /**
   * A platform notification of a user: remembers followers for giveaways open to followers, then
   * goes to every module (goal bars move).
   */
  onNotification(userId: number, type: string, platform: string, data: Readonly<Record<string, unknown>>, platformUserId: string | null, username: string | null = null): void {
    if (type === "follow" && platformUserId) this.repos.botState.addFollower(userId, platform, platformUserId);
    void this.runtime.alert({ channel: String(userId), type, platform, platformUserId, username, data });
  }

  /** The current value of a counter (`counters` table of the user's key-value store); 0 when unset. */
  counterValue(userId: number, name: string): Promise<number> {
    return counterValue(this.#kv, String(userId), name);
  }

  /** Brings counter goals in line with their counters; emits the ones that moved. */
  refreshCounterGoals(userId: number): Promise<void> {
    return this.#builtIn.goalBars.refreshCounters(String(userId), this.runtime.context);
  }
}
