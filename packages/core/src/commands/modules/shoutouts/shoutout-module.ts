import type { BotChatLine, BotChatResult, BotModule, BotModuleContext, BotModuleRoute, PlatformActionResult } from "../../runtime/bot-module.js";
import { PERMISSION_LEVELS, permissionLevelOf } from "../../permission-levels.js";
import { parseModuleConfig } from "../module-error.js";
import { fillBotMessage } from "../system/bot-messages.js";
import { shoutoutMessage } from "./shoutout-messages.js";
import { PROFILE_URLS, SHOUTOUT_LIMITS, SHOUTOUT_LOGIN, shoutoutSettingsSchema, shoutoutStateSchema } from "./shoutout-record.js";
import type { ShoutoutOutcome, ShoutoutRecord, ShoutoutSettings, ShoutoutState } from "./shoutout-record.js";
import { shoutoutRoutes } from "./shoutout-routes.js";

/** The key-value table of shoutouts: keys `settings` and `state`. */
export const SHOUTOUTS_TABLE = "shoutouts";


function readSettings(value: unknown): ShoutoutSettings {
  return parseModuleConfig("stored shoutout settings", shoutoutSettingsSchema, value ?? {});
}

function readState(value: unknown): ShoutoutState {
  return value === undefined ? { last_at: null, targets: {}, recent: [] } : parseModuleConfig("stored shoutouts", shoutoutStateSchema, value);
}

function text(data: Readonly<Record<string, unknown>> | undefined, key: string): string {
  const value = data?.[key];
  return typeof value === "string" ? value : "";
}

function reason(result: PlatformActionResult): string {
  return result.result === "unavailable" ? result.reason : result.result === "failed" ? result.error : "";
}

/**
 * Shoutouts: `!so @name` (moderators and the broadcaster) says who to check out, with the link and
 * what they last streamed as the platform tells it (`channel_info`), and gives the platform's own
 * shoutout where its plugin offers one (Twitch). A channel cooldown and a per-streamer cooldown
 * hold for every platform; the platform's own limits (Twitch: 2 min, 60 min per streamer) are the
 * plugin's to report.
 */
export class ShoutoutModule implements BotModule {
  readonly name = "shoutouts";
  readonly stage = "command";
  readonly routes: readonly BotModuleRoute[] = shoutoutRoutes(this);

  async onChat(line: BotChatLine, ctx: BotModuleContext): Promise<BotChatResult | null> {
    const words = line.event.message.trim().split(/\s+/);
    const command = words[0]?.toLowerCase();
    if (command !== "!so" && command !== "!shoutout") return null;
    // Others' `!so` stays quiet, so it cannot be used to make the bot talk.
    if (permissionLevelOf(line.event) < PERMISSION_LEVELS.moderator) return { handled: true, answers: [] };
    const language = ctx.language(line.channel);
    const say = (value: string): BotChatResult => ({ handled: true, answers: [{ text: value, send_as: "say" }] });
    const outcome = await this.shoutout(line.channel, line.event.platform, words[1] ?? "", line.event.user.username, ctx);
    switch (outcome.status) {
      case "done":
        return say(outcome.record.text);
      case "cooldown":
        return say(shoutoutMessage(language, "cooldown", { seconds: outcome.seconds }));
      case "target_cooldown":
        return say(shoutoutMessage(language, "target_cooldown", { name: outcome.name, minutes: outcome.minutes }));
      case "unknown":
        return say(shoutoutMessage(language, "unknown", { name: outcome.name, platform: line.event.platform }));
      default:
        return say(shoutoutMessage(language, "usage"));
    }
  }

  /** The settings and the latest shoutouts of a channel. */
  async overview(channel: string, ctx: BotModuleContext): Promise<{ settings: ShoutoutSettings; recent: ShoutoutRecord[] }> {
    const table = await ctx.store.table(channel, SHOUTOUTS_TABLE);
    return { settings: readSettings(table["settings"]), recent: readState(table["state"]).recent };
  }

  /** Replaces the settings. Throws `BotModuleError` naming bad fields. */
  async configure(channel: string, input: unknown, ctx: BotModuleContext): Promise<ShoutoutSettings> {
    const settings = parseModuleConfig("shoutout settings", shoutoutSettingsSchema, input);
    await ctx.store.update(channel, SHOUTOUTS_TABLE, "settings", () => settings);
    return settings;
  }

  /**
   * A shoutout of `target` (a login, `@` allowed) on `platform`: the cooldowns are taken at once (two
   * moderators typing `!so` together give one), then the platform is asked who it is and for its own
   * shoutout. The chat message is the caller's to send.
   */
  async shoutout(channel: string, platform: string, target: string, by: string, ctx: BotModuleContext): Promise<ShoutoutOutcome> {
    const login = SHOUTOUT_LOGIN.exec(target)?.[1]?.toLowerCase();
    if (!login) return { status: "bad_name" };
    const settings = readSettings((await ctx.store.table(channel, SHOUTOUTS_TABLE))["settings"]);
    const now = ctx.now();
    const key = `${platform}\u0000${login}`;
    let blocked: ShoutoutOutcome | null = null;
    await ctx.store.update(channel, SHOUTOUTS_TABLE, "state", (current) => {
      const state = readState(current);
      const waited = state.last_at === null ? Infinity : now - state.last_at;
      const targetAt = state.targets[key];
      if (waited < settings.cooldown_seconds * 1000) {
        blocked = { status: "cooldown", seconds: Math.ceil((settings.cooldown_seconds * 1000 - waited) / 1000) };
        return current;
      }
      if (targetAt !== undefined && now - targetAt < settings.target_cooldown_minutes * 60_000) {
        blocked = { status: "target_cooldown", name: login, minutes: Math.max(1, Math.floor((now - targetAt) / 60_000)) };
        return current;
      }
      state.last_at = now;
      state.targets[key] = now;
      for (const [k, at] of Object.entries(state.targets)) if (now - at >= settings.target_cooldown_minutes * 60_000 && k !== key) delete state.targets[k];
      return state;
    });
    const stop = blocked as ShoutoutOutcome | null;
    if (stop) return stop;

    const info = await ctx.platformAction(channel, platform, { type: "channel_info", username: login });
    if (info.result === "done" && info.data?.["found"] === false) {
      await this.#release(channel, key, now, ctx);
      return { status: "unknown", name: login };
    }
    const known = info.result === "done";
    const name = (known && text(info.data, "display_name")) || login;
    const url = (known && text(info.data, "url")) || (PROFILE_URLS[platform]?.(login) ?? "");
    const category = known ? text(info.data, "category") : "";
    const userId = known ? text(info.data, "user_id") : "";
    let native: ShoutoutRecord["native"] = "off";
    let detail = "";
    if (settings.native) {
      const result: PlatformActionResult = userId === ""
        ? { result: "unavailable", reason: known ? "the platform did not give the streamer's id" : reason(info) }
        : await ctx.platformAction(channel, platform, { type: "shoutout", target_platform_id: userId, target_username: login });
      native = result.result === "done" ? "done" : result.result;
      detail = reason(result);
    }
    const language = ctx.language(channel);
    const params = { name, url, category, title: known ? text(info.data, "title") : "" };
    const message =
      settings.message !== ""
        ? fillBotMessage(settings.message, params)
        : shoutoutMessage(language, url === "" ? "name_only" : category === "" ? "link" : "full", params);
    const record: ShoutoutRecord = { at: now, platform, login, name, url, category, native, detail, by, text: message };
    await ctx.store.update(channel, SHOUTOUTS_TABLE, "state", (current) => {
      const state = readState(current);
      state.recent = [record, ...state.recent].slice(0, SHOUTOUT_LIMITS.recent);
      return state;
    });
    return { status: "done", record };
  }

  /** Gives back the cooldowns a shoutout took when it could not be given (no such streamer). */
  async #release(channel: string, key: string, at: number, ctx: BotModuleContext): Promise<void> {
    await ctx.store.update(channel, SHOUTOUTS_TABLE, "state", (current) => {
      const state = readState(current);
      if (state.last_at === at) state.last_at = state.recent[0]?.at ?? null;
      if (state.targets[key] === at) delete state.targets[key];
      return state;
    });
  }
}
