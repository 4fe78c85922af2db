import type { BotLanguage } from "../system/bot-messages.js";
import { fillBotMessage } from "../system/bot-messages.js";

const MESSAGES = {
  en: {
    full: "Go check out {name} at {url}! They were last streaming {category}.",
    link: "Go check out {name} at {url}!",
    name_only: "Go check out {name}!",
    cooldown: "Shoutouts are cooling down: try again in {seconds} s.",
    target_cooldown: "{name} got a shoutout {minutes} min ago.",
    unknown: "I can't find {name} on {platform}.",
    usage: "Usage: !so @name",
  },
  de: {
    full: "Schaut bei {name} vorbei: {url}! Zuletzt gestreamt: {category}.",
    link: "Schaut bei {name} vorbei: {url}!",
    name_only: "Schaut bei {name} vorbei!",
    cooldown: "Shoutouts brauchen eine Pause: in {seconds} s wieder.",
    target_cooldown: "{name} hatte vor {minutes} min einen Shoutout.",
    unknown: "{name} finde ich auf {platform} nicht.",
    usage: "Verwendung: !so @Name",
  },
} as const satisfies Record<BotLanguage, Record<string, string>>;

/** A key of the shoutouts' chat messages. */
export type ShoutoutMessageKey = keyof (typeof MESSAGES)["en"];

/** The shoutouts' message `key` in `language`. */
export function shoutoutMessage(language: BotLanguage, key: ShoutoutMessageKey, params: Readonly<Record<string, string | number>> = {}): string {
  return fillBotMessage(MESSAGES[language][key], params);
}
