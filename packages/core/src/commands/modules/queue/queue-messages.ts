import type { BotLanguage } from "../system/bot-messages.js";
import { fillBotMessage } from "../system/bot-messages.js";

const MESSAGES = {
  en: {
    joined: "@{user} joined the queue at position {position}.",
    already: "@{user} you are already in the queue at position {position}.",
    closed: "The queue is closed.",
    full: "The queue is full ({max} viewers).",
    left: "@{user} left the queue.",
    not_in: "@{user} you are not in the queue.",
    position: "@{user} you are number {position} of {count} in the queue.",
    status_open: "The queue is open with {count} waiting{next}. Type !join to join.",
    status_closed: "The queue is closed ({count} waiting).",
    next: ": next up {list}",
    opened: "The queue is open: type !join to join!",
    closed_now: "The queue is closed.",
    picked: "Up next: {list}!",
    empty: "Nobody is waiting in the queue.",
    cleared: "The queue is empty now.",
    usage: "Usage: !queue open|close|next [count]|random|clear",
  },
  de: {
    joined: "@{user} ist jetzt auf Platz {position} der Warteschlange.",
    already: "@{user} du bist schon auf Platz {position} der Warteschlange.",
    closed: "Die Warteschlange ist geschlossen.",
    full: "Die Warteschlange ist voll ({max} Zuschauer).",
    left: "@{user} hat die Warteschlange verlassen.",
    not_in: "@{user} du bist nicht in der Warteschlange.",
    position: "@{user} du bist Nummer {position} von {count} in der Warteschlange.",
    status_open: "Die Warteschlange ist offen, {count} warten{next}. Schreib !join, um mitzumachen.",
    status_closed: "Die Warteschlange ist geschlossen ({count} warten).",
    next: ", als Nächstes {list}",
    opened: "Die Warteschlange ist offen: schreib !join, um mitzumachen!",
    closed_now: "Die Warteschlange ist geschlossen.",
    picked: "Als Nächstes: {list}!",
    empty: "Niemand wartet in der Warteschlange.",
    cleared: "Die Warteschlange ist jetzt leer.",
    usage: "Verwendung: !queue open|close|next [Anzahl]|random|clear",
  },
} as const satisfies Record<BotLanguage, Record<string, string>>;

/** A key of the queue's chat messages. */
export type QueueMessageKey = keyof (typeof MESSAGES)["en"];

/** The queue's message `key` in `language`. */
export function queueMessage(language: BotLanguage, key: QueueMessageKey, params: Readonly<Record<string, string | number>> = {}): string {
  return fillBotMessage(MESSAGES[language][key], params);
}
