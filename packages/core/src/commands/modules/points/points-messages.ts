import { fillBotMessage } from "../system/bot-messages.js";
import type { BotLanguage, BotMessageParams } from "../system/bot-messages.js";

const MESSAGES = {
  en: {
    balance: "@{user} has {points} {currency}.",
    unknown: "I have not seen @{user} in chat yet.",
    added: "@{user} now has {points} {currency} (+{amount}).",
    removed: "@{user} now has {points} {currency} (-{amount}).",
    usage: "Usage: !{command} @user amount",
    moderators_only: "@{user}, only moderators can change {currency}.",
  },
  de: {
    balance: "@{user} hat {points} {currency}.",
    unknown: "@{user} habe ich im Chat noch nicht gesehen.",
    added: "@{user} hat jetzt {points} {currency} (+{amount}).",
    removed: "@{user} hat jetzt {points} {currency} (-{amount}).",
    usage: "Verwendung: !{command} @user Anzahl",
    moderators_only: "@{user}, nur Moderatoren können {currency} ändern.",
  },
} as const satisfies Record<BotLanguage, Record<string, string>>;

/** A key of the points module's chat messages. */
export type PointsMessageKey = keyof (typeof MESSAGES)["en"];

/** The points module's message `key` in the channel's bot language. */
export function pointsMessage(language: BotLanguage, key: PointsMessageKey, params: BotMessageParams = {}): string {
  return fillBotMessage(MESSAGES[language][key], params);
}
