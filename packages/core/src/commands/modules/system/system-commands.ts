import { z } from "zod";
import type { ChatEvent } from "../../../chat/event.js";
import type { OutgoingMessage } from "../../../plugins/contract.js";
import type { OverlaySettings } from "../../../realtime/events.js";
import type { BotCommand } from "../../command-record.js";
import { PERMISSION_LEVELS, permissionLevelOf } from "../../permission-levels.js";
import type { PermissionLevelName } from "../../permission-levels.js";
import { BOT_LANGUAGES, botMessage, type BotLanguage, type BotMessageKey } from "./bot-messages.js";

/** The overlay switches `!visuals`, `!effects`, `!sounds` turn on and off in the browser sources. */
export const OVERLAY_SWITCHES = ["visuals", "effects", "sounds"] as const;
/** One of {@link OVERLAY_SWITCHES}. */
export type OverlaySwitch = (typeof OVERLAY_SWITCHES)[number];

/** The names of the system commands. */
export const SYSTEM_COMMANDS = ["help", "language", ...OVERLAY_SWITCHES] as const;
/** One of {@link SYSTEM_COMMANDS}. */
export type SystemCommandName = (typeof SYSTEM_COMMANDS)[number];

/**
 * Who may use each system command by default (the streamer changes it in `levels`): `!help` answers
 * everyone; the others show their setting to everyone and change it for moderators and the
 * broadcaster only.
 */
export const SYSTEM_COMMAND_LEVELS: Readonly<Record<SystemCommandName, PermissionLevelName>> = {
  help: "everyone",
  language: "moderator",
  visuals: "moderator",
  effects: "moderator",
  sounds: "moderator",
};

const PERMISSION_LEVEL_NAMES = Object.keys(PERMISSION_LEVELS) as [PermissionLevelName, ...PermissionLevelName[]];
const levelSchema = (name: SystemCommandName) =>
  z.enum(PERMISSION_LEVEL_NAMES, { error: () => `must be one of ${PERMISSION_LEVEL_NAMES.join(", ")}` }).default(SYSTEM_COMMAND_LEVELS[name]);

/** Per channel: the bot's language, the overlay switches (sent to browser sources) and the system commands switched off. */
export const botSettingsSchema = z.object({
  language: z.enum(BOT_LANGUAGES).default("en"),
  visuals: z.boolean().default(true),
  effects: z.boolean().default(true),
  sounds: z.boolean().default(true),
  /** System commands the streamer switched off: the bot stays silent on them (the settings they show still apply). */
  disabled_commands: z
    .array(z.enum(SYSTEM_COMMANDS, { error: () => `must name a system command (${SYSTEM_COMMANDS.join(", ")})` }))
    .max(SYSTEM_COMMANDS.length)
    .default([]),
  /**
   * Per system command, the least level that may use it: for `!help`, to get an answer at all (below
   * it the bot stays silent, as for a command of yours); for the others, to change the setting
   * (below it the bot answers how to use it and the setting now). A command left out keeps its default.
   */
  levels: z
    .strictObject({ help: levelSchema("help"), language: levelSchema("language"), visuals: levelSchema("visuals"), effects: levelSchema("effects"), sounds: levelSchema("sounds") })
    .prefault({}),
});
/** Validated bot settings. */
export type BotSettings = z.output<typeof botSettingsSchema>;

/** The overlay switches of the bot settings, as browser sources receive them. */
export function overlaySwitches(settings: BotSettings): OverlaySettings {
  return { visuals: settings.visuals, effects: settings.effects, sounds: settings.sounds };
}

/** Options of {@link SystemCommands}. */
export interface SystemCommandsOptions {
  /** The channel's user commands (a user command of the same name wins over a system command). */
  commands: (channel: string) => readonly BotCommand[];
  /** Called when `!language` or a switch changes a channel's settings (store them, tell the browser sources). */
  onChange?: (channel: string, settings: BotSettings) => void;
}

/** What a system command did. */
export interface SystemCommandResult {
  command: (typeof SYSTEM_COMMANDS)[number];
  reply: OutgoingMessage;
  /** The new settings when the command changed them. */
  changed: BotSettings | null;
}

const MAX_REPLY = 500;

/**
 * The built-in commands `!help [command]`, `!language de|en` and `!visuals|!effects|!sounds on|off`.
 * Each has a level (`levels` of the settings): who `!help` answers, and who may change a setting
 * (anyone may see it); by default everyone asks `!help` and moderators and the broadcaster change. The
 * bot's own messages (these answers, giveaway announcements, moderation warnings) follow the
 * channel's language.
 */
export class SystemCommands {
  readonly #settings = new Map<string, BotSettings>();
  readonly #options: SystemCommandsOptions;

  constructor(options: SystemCommandsOptions) {
    this.#options = options;
  }

  /** Loads stored settings of a channel (invalid fields fall back to their defaults). */
  restore(channel: string, stored: unknown): BotSettings {
    const parsed = botSettingsSchema.safeParse(stored ?? {});
    const settings = parsed.success ? parsed.data : botSettingsSchema.parse({});
    this.#settings.set(channel, settings);
    return { ...settings };
  }

  /** The channel's settings (defaults when never set). */
  settings(channel: string): BotSettings {
    return { ...(this.#settings.get(channel) ?? botSettingsSchema.parse({})) };
  }

  /** The channel's language for the bot's own messages. */
  language(channel: string): BotLanguage {
    return this.settings(channel).language;
  }

  /** Changes settings of a channel (from the API); returns the new settings. */
  update(channel: string, changes: Partial<BotSettings>): BotSettings {
    const settings = botSettingsSchema.parse({ ...this.settings(channel), ...changes });
    this.#settings.set(channel, settings);
    this.#options.onChange?.(channel, { ...settings });
    return { ...settings };
  }

  /**
   * Handles a chat event; resolves to null when it is not a system command, a user command of that
   * name exists, the command is switched off, or the caller is below `!help`'s level.
   */
  handle(event: ChatEvent): SystemCommandResult | null {
    if (event.message.charCodeAt(0) !== 33) return null;
    const [word = "", argument = ""] = event.message.slice(1).trim().split(/\s+/);
    const name = word.toLowerCase();
    if (!(SYSTEM_COMMANDS as readonly string[]).includes(name)) return null;
    const channel = event.channel.id;
    const settings = this.settings(channel);
    if ((settings.disabled_commands as readonly string[]).includes(name)) return null;
    if (this.#options.commands(channel).some((command) => command.commands.some((n) => n.toLowerCase() === name))) return null;
    const say = (key: BotMessageKey, params: Record<string, string | number> = {}, language = settings.language) =>
      reply(event, botMessage(language, key, params));
    const arg = argument.toLowerCase();
    // At the command's level: !help answers, the others change their setting.
    const allowed = permissionLevelOf(event) >= PERMISSION_LEVELS[settings.levels[name as SystemCommandName]];
    if (name === "help") return allowed ? { command: "help", reply: this.#help(event, settings.language, arg.replace(/^!/, "")), changed: null } : null;
    if (name === "language") {
      if (!allowed || !(BOT_LANGUAGES as readonly string[]).includes(arg)) {
        return { command: "language", reply: say("language_usage", { language: settings.language }), changed: null };
      }
      const changed = this.update(channel, { language: arg as BotLanguage });
      return { command: "language", reply: say("language_set", {}, changed.language), changed };
    }
    const which = name as OverlaySwitch;
    const state = (on: boolean) => botMessage(settings.language, on ? "on" : "off");
    if (!allowed || (arg !== "on" && arg !== "off")) {
      return { command: which, reply: say("overlay_usage", { what: which, state: state(settings[which]) }), changed: null };
    }
    const changed = this.update(channel, { [which]: arg === "on" });
    return { command: which, reply: say("overlay_set", { what: botMessage(settings.language, which), state: state(arg === "on") }), changed };
  }

  #help(event: ChatEvent, language: BotLanguage, asked: string): OutgoingMessage {
    const visible = this.#options.commands(event.channel.id).filter((command) => command.is_visible);
    if (asked !== "") {
      const command = visible.find((c) => c.commands.some((n) => n.toLowerCase() === asked));
      if (command === undefined) return reply(event, botMessage(language, "help_unknown", { command: asked }));
      const aliases = command.command_aliases.length > 0 ? botMessage(language, "help_aliases", { list: command.command_aliases.map((a) => `!${a}`).join(", ") }) : "";
      const level = botMessage(language, `level_${Math.min(Math.max(command.permissions, 0), 4)}` as BotMessageKey);
      return reply(event, botMessage(language, "help_command", { command: command.command, aliases, level }));
    }
    const names = [...visible.map((c) => `!${c.command}`)].sort();
    if (names.length === 0) return reply(event, botMessage(language, "help_none"));
    let list = "";
    for (const name of names) {
      const next = list === "" ? name : `${list}, ${name}`;
      if (botMessage(language, "help_list", { list: next }).length > MAX_REPLY - 2) {
        list = `${list}, …`;
        break;
      }
      list = next;
    }
    return reply(event, botMessage(language, "help_list", { list }));
  }
}

function reply(event: ChatEvent, text: string): OutgoingMessage {
  return { channel: event.channel, text, send_as: "say", reply_to: null };
}
