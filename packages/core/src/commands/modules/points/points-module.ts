import type { ChatEvent } from "../../../chat/event.js";
import { POINTS_TABLE, readField, storedNumber } from "../../key-value-store.js";
import { PERMISSION_LEVELS, permissionLevelOf } from "../../permission-levels.js";
import type { BotAlert, BotChatLine, BotChatResult, BotModule, BotModuleContext, BotModuleRoute } from "../../runtime/bot-module.js";
import {
  adjustPoints,
  appendPointsHistory,
  awardPoints,
  loadPointsSettings,
  pointsBalance,
  rememberViewers,
  storedViewerOf,
  walletByName,
} from "./points-ledger.js";
import { pointsMessage } from "./points-messages.js";
import type { PointsMessageKey } from "./points-messages.js";
import { POINTS_LIMITS, pointsWallet } from "./points-record.js";
import type { PointsHistoryEntry, PointsReason, PointsSettings, PointsViewer } from "./points-record.js";
import { pointsRoutes } from "./points-routes.js";

/** Badges that make a viewer a subscriber for the bonus (Twitch/Kick subscriber and founder, YouTube member). */
const SUBSCRIBER_BADGES: ReadonlySet<string> = new Set(["subscriber", "founder", "member"]);
const COMMANDS: ReadonlySet<string> = new Set(["points", "addpoints", "removepoints"]);
const WHITESPACE = /\s+/;

interface Seen {
  at: number;
  subscriber: boolean;
}

/** What the module keeps in memory per channel (the balances are in the store only). */
interface ChannelPoints {
  settings: PointsSettings;
  /** Another node changed the channel's store since `settings` was read: the next tick reads them again. */
  settingsStale: boolean;
  /** Wallet -> the viewer's last chat line: who is watching (platforms do not list lurkers alike). */
  seen: Map<string, Seen>;
  /** Wallet -> when a message last earned points (the cooldown). */
  messageAwardedAt: Map<string, number>;
  /** Message points earned since the last write (written with the next tick, or before a read). */
  pending: Map<string, number>;
  /** Names to store with the next write; `named` holds the ones stored by this process, for the viewers in `seen`. */
  names: Map<string, PointsViewer>;
  named: Map<string, string>;
  /** Up to when watch time was paid, while live; null while offline. */
  paidUntil: number | null;
  /** Platform wallets of linked viewers already moved into their account's wallet by this process. */
  folded: Set<string>;
}

/** What one tick did: channels and viewers paid, and store writes made (the bench reads it). */
export interface PointsTickReport {
  channels: number;
  viewers: number;
  writes: number;
}

/** Options of {@link PointsModule}. */
export interface PointsModuleOptions {
  /** Module names (default `points-earn` for the observer, `points` for the commands and routes). */
  names?: { observer?: string; commands?: string };
}

function isSubscriber(event: ChatEvent): boolean {
  return event.user.badges.some((badge) => SUBSCRIBER_BADGES.has(badge.type.toLowerCase()));
}

function numberOf(value: unknown): number {
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** The points an alert earns under `settings`, and why (0 when it earns none). */
export function alertPoints(settings: PointsSettings, alert: Pick<BotAlert, "type" | "data">): { points: number; reason: PointsReason } {
  const amount = numberOf(alert.data["amount"]);
  switch (alert.type) {
    case "follow":
      return { points: settings.follow, reason: "follow" };
    case "subscribe":
      // A gifted subscription earns its gifter (gift-subscribe), not the viewer it was given to.
      return { points: alert.data["is_gift"] === true ? 0 : settings.subscriber, reason: "subscriber" };
    case "re-subscribe":
      return { points: settings.subscriber, reason: "subscriber" };
    case "gift-subscribe":
      return { points: settings.subscriber * Math.max(1, Math.floor(amount)), reason: "subscriber" };
    case "cheer":
      return { points: Math.floor((amount * settings.cheer_per_100) / 100), reason: "cheer" };
    case "donation":
    case "superchat":
    case "charity-donation":
      return { points: Math.floor(amount * settings.tip_per_unit), reason: "tip" };
    default:
      return { points: 0, reason: "follow" };
  }
}

/**
 * Loyalty points: viewers earn them per minute watched while live (chatters seen in the last
 * `active_minutes`), per message (with a cooldown) and per follow, subscription, cheer and tip; a
 * command's `price` spends them. Two bot modules share this state: an observer that sees every chat
 * line and alert (earning), and a command module (`!points`, `!points @user`, moderators'
 * `!addpoints`/`!removepoints`, and the API routes). Balances live only in the store (table
 * `points`, key = the viewer's wallet, see {@link pointsWallet}); a tick pays every watching viewer
 * of a channel in one batched write.
 */
export class PointsModule {
  readonly observer: BotModule;
  readonly commands: BotModule;
  /** What the last tick did. */
  lastTick: PointsTickReport = { channels: 0, viewers: 0, writes: 0 };
  readonly #channels = new Map<string, Promise<ChannelPoints>>();

  constructor(options: PointsModuleOptions = {}) {
    this.observer = {
      name: options.names?.observer ?? "points-earn",
      stage: "observe",
      onChat: (line, ctx) => this.#observe(line, ctx),
      onAlert: (alert, ctx) => this.#alert(alert, ctx),
      tick: (ctx) => this.tick(ctx).then(() => undefined),
      load: (channel, ctx) => this.reload(channel, ctx),
      forget: (channel) => void this.#channels.delete(channel),
      storeChanged: (channel) => this.invalidate(channel),
    };
    const routes: readonly BotModuleRoute[] = pointsRoutes(this);
    this.commands = {
      name: options.names?.commands ?? "points",
      stage: "command",
      onChat: (line, ctx) => this.#command(line, ctx),
      routes,
    };
  }

  /** Both modules, to register (observer first). */
  modules(): BotModule[] {
    return [this.observer, this.commands];
  }

  /** The channel's settings as the module uses them (read from the store once). */
  async settings(channel: string, ctx: BotModuleContext): Promise<PointsSettings> {
    return (await this.#state(channel, ctx)).settings;
  }

  /** Takes settings saved through the API into use. */
  async useSettings(channel: string, ctx: BotModuleContext, settings: PointsSettings): Promise<void> {
    const state = await this.#state(channel, ctx);
    if (state.settings.enabled && !settings.enabled) state.pending.clear();
    state.settings = settings;
    state.settingsStale = false;
  }

  /**
   * Marks a channel's settings as stale (another node may have saved new ones): the next tick reads
   * them from the store. Until then, and in between, ticks use the settings held in memory.
   */
  invalidate(channel: string): void {
    const loading = this.#channels.get(channel);
    if (loading !== undefined) void loading.then((state) => void (state.settingsStale = true), () => undefined);
  }

  /** Re-reads a channel's settings from the store (start, a change by another node). */
  async reload(channel: string, ctx: BotModuleContext): Promise<void> {
    const settings = await loadPointsSettings(ctx.store, channel);
    const loaded = this.#channels.get(channel);
    if (loaded === undefined) this.#channels.set(channel, Promise.resolve(this.#fresh(settings)));
    else Object.assign(await loaded, { settings, settingsStale: false });
  }

  /**
   * Pays watch time (and writes message points) for every channel: per live channel, whole minutes
   * since the last payment (at most `POINTS_LIMITS.catchUpMinutes`) to each viewer seen in chat in the
   * last `active_minutes`, subscribers with their bonus; one batched write per table and channel.
   */
  async tick(ctx: BotModuleContext): Promise<PointsTickReport> {
    const report: PointsTickReport = { channels: 0, viewers: 0, writes: 0 };
    for (const [channel, loading] of this.#channels) {
      const state = await loading;
      // Settings are held per channel: saved here they are taken at once (useSettings); saved by another
      // node they are read again on the tick after the store says the channel changed (invalidate).
      if (state.settingsStale) {
        state.settingsStale = false;
        state.settings = await loadPointsSettings(ctx.store, channel);
      }
      const now = ctx.now();
      const settings = state.settings;
      const since = now - settings.active_minutes * 60_000;
      // The names stored are remembered for the viewers still active only: kept for every viewer
      // since the start, a channel's memory grew with each new chatter for the life of the process
      // (100,000 entries after a giveaway of 100,000). A viewer who comes back has their name
      // written again, once.
      for (const [wallet, seen] of state.seen) {
        if (seen.at >= since) continue;
        state.seen.delete(wallet);
        state.named.delete(wallet);
      }
      // Names of viewers not seen in chat (named by an alert): swept when the names outnumber the
      // active viewers, so a tick does not walk every name of a big channel for nothing, and after a
      // tick there are never more names than active viewers.
      if (state.named.size > state.seen.size) for (const wallet of state.named.keys()) if (!state.seen.has(wallet)) state.named.delete(wallet);
      const cooled = now - settings.message_cooldown_seconds * 1000;
      for (const [wallet, at] of state.messageAwardedAt) if (at <= cooled) state.messageAwardedAt.delete(wallet);
      const watch = new Map<string, number>();
      if (settings.enabled && ctx.isLive(channel)) {
        if (state.paidUntil === null) state.paidUntil = now;
        const minutes = Math.floor((now - state.paidUntil) / 60_000);
        if (minutes > 0) {
          state.paidUntil += minutes * 60_000;
          const paid = Math.min(minutes, POINTS_LIMITS.catchUpMinutes);
          for (const [wallet, seen] of state.seen) {
            const amount = paid * (settings.per_minute + (seen.subscriber ? settings.subscriber_bonus : 0));
            if (amount > 0) watch.set(wallet, amount);
          }
        }
      } else state.paidUntil = null;
      if (watch.size === 0 && state.pending.size === 0 && state.names.size === 0) continue;
      report.channels++;
      report.viewers += watch.size;
      report.writes += await this.#write(channel, state, ctx, watch);
    }
    this.lastTick = report;
    return report;
  }

  /** Writes a channel's pending names and message points now (before a read of its balances). */
  async flush(channel: string, ctx: BotModuleContext): Promise<void> {
    const loading = this.#channels.get(channel);
    if (loading !== undefined) await this.#write(channel, await loading, ctx, new Map());
  }

  /** Changes one balance and logs it; resolves to the balance after and the change made. */
  async adjust(channel: string, ctx: BotModuleContext, wallet: string, delta: number, reason: PointsReason, by: string | null): Promise<{ balance: number; applied: number }> {
    await this.flush(channel, ctx);
    const result = await adjustPoints(ctx.store, channel, wallet, delta);
    const name = (await storedViewerOf(ctx.store, channel, wallet))?.name ?? null;
    await appendPointsHistory(ctx.store, channel, [this.#entry(ctx, reason, wallet, name, result.applied, result.balance, 1, by)]);
    return result;
  }

  #fresh(settings: PointsSettings): ChannelPoints {
    return { settings, settingsStale: false, seen: new Map(), messageAwardedAt: new Map(), pending: new Map(), names: new Map(), named: new Map(), paidUntil: null, folded: new Set() };
  }

  #state(channel: string, ctx: BotModuleContext): Promise<ChannelPoints> {
    let loading = this.#channels.get(channel);
    if (loading === undefined) {
      loading = loadPointsSettings(ctx.store, channel).then((settings) => this.#fresh(settings));
      this.#channels.set(channel, loading);
      // A failed read is retried on the next line instead of sticking.
      loading.catch(() => this.#channels.delete(channel));
    }
    return loading;
  }

  #entry(ctx: BotModuleContext, reason: PointsReason, viewer: string | null, name: string | null, delta: number, balance: number | null, viewers: number, by: string | null): PointsHistoryEntry {
    return { at: new Date(ctx.now()).toISOString(), reason, viewer, name, delta, balance, viewers, by };
  }

  /** Names, watch time and message points of a channel in one batched write per table; resolves to the writes made. */
  async #write(channel: string, state: ChannelPoints, ctx: BotModuleContext, watch: ReadonlyMap<string, number>): Promise<number> {
    const names = state.names;
    const messages = state.pending;
    state.names = new Map();
    state.pending = new Map();
    let writes = 0;
    if (names.size > 0) {
      try {
        writes += await rememberViewers(ctx.store, channel, names);
        for (const [wallet, viewer] of names) state.named.set(wallet, viewer.name);
      } catch (err) {
        ctx.log.warn({ err, channel, viewers: names.size }, "points: viewers' names not stored");
      }
    }
    const awards = new Map(watch);
    for (const [wallet, amount] of messages) awards.set(wallet, (awards.get(wallet) ?? 0) + amount);
    if (awards.size === 0) return writes;
    try {
      writes += await awardPoints(ctx.store, channel, awards);
    } catch (err) {
      ctx.log.warn({ err, channel, viewers: awards.size }, "points: a tick's points not stored");
      return writes;
    }
    const history: PointsHistoryEntry[] = [];
    const sum = (map: ReadonlyMap<string, number>) => [...map.values()].reduce((total, n) => total + n, 0);
    if (watch.size > 0) history.push(this.#entry(ctx, "watch", null, null, sum(watch), null, watch.size, null));
    if (messages.size > 0) history.push(this.#entry(ctx, "message", null, null, sum(messages), null, messages.size, null));
    await appendPointsHistory(ctx.store, channel, history);
    return writes + 1;
  }

  /**
   * The wallet of a viewer. A viewer whose platform account is linked to an Ovation account uses the
   * account's wallet; what their platform wallet held before the link is moved into it (once).
   */
  async wallet(channel: string, ctx: BotModuleContext, platform: string, platformUserId: string): Promise<string> {
    const account = ctx.linkedAccount?.(platform, platformUserId) ?? null;
    const wallet = pointsWallet(platform, platformUserId, account);
    if (account === null) return wallet;
    const state = await this.#state(channel, ctx);
    const own = pointsWallet(platform, platformUserId, null);
    if (state.folded.has(own)) return wallet;
    state.folded.add(own);
    if ((await readField(ctx.store, channel, POINTS_TABLE, own)) === undefined) return wallet;
    let moved = 0;
    await ctx.store.update(channel, POINTS_TABLE, own, (current) => {
      moved = storedNumber(current);
      return undefined;
    });
    if (moved > 0) {
      const { balance, applied } = await adjustPoints(ctx.store, channel, wallet, moved);
      await appendPointsHistory(ctx.store, channel, [this.#entry(ctx, "link", wallet, null, applied, balance, 1, own)]);
    }
    return wallet;
  }

  async #observe(line: BotChatLine, ctx: BotModuleContext): Promise<null> {
    const state = await this.#state(line.channel, ctx);
    const event = line.event;
    // The streamer's own account does not earn in their channel.
    if (!state.settings.enabled || event.user.platform_id === event.channel.platform_id) return null;
    const wallet = await this.wallet(line.channel, ctx, event.platform, event.user.platform_id);
    const now = ctx.now();
    state.seen.set(wallet, { at: now, subscriber: isSubscriber(event) });
    if (state.named.get(wallet) !== event.user.username) state.names.set(wallet, { name: event.user.username, platform: event.platform });
    const { per_message, message_cooldown_seconds } = state.settings;
    // A command earns nothing: typing `!points` over and over must not pay.
    if (per_message > 0 && ctx.isLive(line.channel) && event.message.trimStart().charCodeAt(0) !== 33) {
      const last = state.messageAwardedAt.get(wallet);
      if (last === undefined || now - last >= message_cooldown_seconds * 1000) {
        state.messageAwardedAt.set(wallet, now);
        state.pending.set(wallet, (state.pending.get(wallet) ?? 0) + per_message);
      }
    }
    return null;
  }

  async #alert(alert: BotAlert, ctx: BotModuleContext): Promise<void> {
    if (alert.platformUserId === null) return;
    const state = await this.#state(alert.channel, ctx);
    if (!state.settings.enabled) return;
    const { points, reason } = alertPoints(state.settings, alert);
    if (points <= 0) return;
    const wallet = await this.wallet(alert.channel, ctx, alert.platform, alert.platformUserId);
    if (alert.username !== null && state.named.get(wallet) !== alert.username) state.names.set(wallet, { name: alert.username, platform: alert.platform });
    await this.adjust(alert.channel, ctx, wallet, Math.min(points, POINTS_LIMITS.maxBalance), reason, null);
  }

  async #command(line: BotChatLine, ctx: BotModuleContext): Promise<BotChatResult | null> {
    const event = line.event;
    const text = event.message.trim();
    if (text.charCodeAt(0) !== 33) return null;
    const [word = "", ...args] = text.split(WHITESPACE);
    const command = word.slice(1).toLowerCase();
    if (!COMMANDS.has(command)) return null;
    const channel = line.channel;
    const state = await this.#state(channel, ctx);
    if (!state.settings.enabled) return null;
    const currency = state.settings.currency;
    const language = ctx.language(channel);
    const say = (key: PointsMessageKey, params: Record<string, string | number> = {}): BotChatResult => ({
      handled: true,
      answers: [{ text: pointsMessage(language, key, { currency, ...params }), send_as: "say" }],
    });
    const target = args[0];
    if (command === "points") {
      await this.flush(channel, ctx);
      if (target === undefined) {
        const wallet = await this.wallet(channel, ctx, event.platform, event.user.platform_id);
        return say("balance", { user: event.user.username, points: await pointsBalance(ctx.store, channel, wallet) });
      }
      const found = await walletByName(ctx.store, channel, target, event.platform);
      const name = target.replace(/^@/, "");
      if (found === null) return say("unknown", { user: name });
      return say("balance", { user: (await storedViewerOf(ctx.store, channel, found))?.name ?? name, points: await pointsBalance(ctx.store, channel, found) });
    }
    if (permissionLevelOf(event) < PERMISSION_LEVELS.moderator) return say("moderators_only", { user: event.user.username });
    const amountText = args[1] ?? "";
    const amount = Number(amountText);
    if (target === undefined || !/^[0-9]{1,10}$/.test(amountText) || amount < 1 || amount > POINTS_LIMITS.maxBalance) return say("usage", { command });
    await this.flush(channel, ctx);
    const wallet = await walletByName(ctx.store, channel, target, event.platform);
    const name = target.replace(/^@/, "");
    if (wallet === null) return say("unknown", { user: name });
    const add = command === "addpoints";
    const { balance, applied } = await this.adjust(channel, ctx, wallet, add ? amount : -amount, add ? "add" : "remove", event.user.username);
    return say(add ? "added" : "removed", { user: (await storedViewerOf(ctx.store, channel, wallet))?.name ?? name, points: balance, amount: Math.abs(applied) });
  }
}

/** The points modules to register (the observer, then the commands and routes). */
export function pointsModules(options: PointsModuleOptions = {}): BotModule[] {
  return new PointsModule(options).modules();
}
