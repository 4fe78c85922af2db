import { BOT_LANGUAGES } from "../../runtime/bot-language.js";
import type { BotLanguage } from "../../runtime/bot-language.js";

export { BOT_LANGUAGES };
export type { BotLanguage };

/** Values of a message's `{name}` placeholders. */
export type BotMessageParams = Readonly<Record<string, string | number>>;

const MESSAGES = {
  en: {
    help_list: "Commands: {list}",
    help_none: "There are no commands yet.",
    help_command: "!{command}{aliases}: for {level}",
    help_aliases: " (also {list})",
    help_unknown: "There is no command !{command}.",
    level_0: "everyone",
    level_1: "subscribers",
    level_2: "VIPs",
    level_3: "moderators",
    level_4: "the broadcaster",
    language_set: "I speak English now.",
    language_usage: "Usage: !language de|en (now: {language})",
    overlay_set: "{what} are {state} now.",
    overlay_usage: "Usage: !{what} on|off (now: {state})",
    on: "on",
    off: "off",
    visuals: "Visuals",
    effects: "Effects",
    sounds: "Sounds",
    giveaway_opened: "A giveaway is open: type {keyword} to enter!",
    giveaway_closed: "The giveaway is closed with {count} entries.",
    giveaway_winners: "Congratulations {winners}, you won!",
    giveaway_no_entries: "Nobody entered the giveaway.",
    moderation_warn: "@{user}, please follow the chat rules ({rule}).",
    price_not_enough: "@{user} !{command} costs {price} {currency}; you have {balance}.",
  },
  de: {
    help_list: "Befehle: {list}",
    help_none: "Es gibt noch keine Befehle.",
    help_command: "!{command}{aliases}: für {level}",
    help_aliases: " (auch {list})",
    help_unknown: "Den Befehl !{command} gibt es nicht.",
    level_0: "alle",
    level_1: "Abonnenten",
    level_2: "VIPs",
    level_3: "Moderatoren",
    level_4: "den Streamer",
    language_set: "Ich spreche jetzt Deutsch.",
    language_usage: "Verwendung: !language de|en (jetzt: {language})",
    overlay_set: "{what} sind jetzt {state}.",
    overlay_usage: "Verwendung: !{what} on|off (jetzt: {state})",
    on: "an",
    off: "aus",
    visuals: "Visuelle Effekte",
    effects: "Effekte",
    sounds: "Töne",
    giveaway_opened: "Ein Gewinnspiel läuft: schreib {keyword}, um mitzumachen!",
    giveaway_closed: "Das Gewinnspiel ist mit {count} Teilnahmen geschlossen.",
    giveaway_winners: "Glückwunsch {winners}, ihr habt gewonnen!",
    giveaway_no_entries: "Niemand hat am Gewinnspiel teilgenommen.",
    moderation_warn: "@{user}, bitte halte dich an die Chatregeln ({rule}).",
    price_not_enough: "@{user} !{command} kostet {price} {currency}; du hast {balance}.",
  },
} as const satisfies Record<BotLanguage, Record<string, string>>;

/** A key of the bot's own messages. */
export type BotMessageKey = keyof (typeof MESSAGES)["en"];

/** The bot's own message `key` in `language`, with `{name}` placeholders filled from `params`. */
export function botMessage(language: BotLanguage, key: BotMessageKey, params: BotMessageParams = {}): string {
  return fillBotMessage(MESSAGES[language][key], params);
}

/** `template` with its `{name}` placeholders filled from `params` (a module's own messages use it too). */
export function fillBotMessage(template: string, params: BotMessageParams = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}
