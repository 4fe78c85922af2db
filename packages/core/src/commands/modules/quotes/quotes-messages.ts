import { fillBotMessage } from "../system/bot-messages.js";
import type { BotLanguage, BotMessageParams } from "../system/bot-messages.js";

const MESSAGES = {
  en: {
    quote: "#{id}: \"{text}\" ({context})",
    none: "There are no quotes yet.",
    missing: "There is no quote #{id}.",
    added: "Quote #{id} added.",
    usage: "Usage: !quote, !quote <number>, !quote add <text>",
    moderators_only: "@{user}, only moderators can add quotes.",
    full: "The quote book is full ({limit} quotes).",
  },
  de: {
    quote: "#{id}: \"{text}\" ({context})",
    none: "Es gibt noch keine Zitate.",
    missing: "Das Zitat #{id} gibt es nicht.",
    added: "Zitat #{id} hinzugefügt.",
    usage: "Verwendung: !quote, !quote <Nummer>, !quote add <Text>",
    moderators_only: "@{user}, nur Moderatoren können Zitate hinzufügen.",
    full: "Das Zitatbuch ist voll ({limit} Zitate).",
  },
} as const satisfies Record<BotLanguage, Record<string, string>>;

/** A key of the quotes module's chat messages. */
export type QuotesMessageKey = keyof (typeof MESSAGES)["en"];

/** The quotes module's message `key` in the channel's bot language. */
export function quotesMessage(language: BotLanguage, key: QuotesMessageKey, params: BotMessageParams = {}): string {
  return fillBotMessage(MESSAGES[language][key], params);
}
