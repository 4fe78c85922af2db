import type { BotLanguage } from "../system/bot-messages.js";
import { fillBotMessage } from "../system/bot-messages.js";

const MESSAGES = {
  en: {
    started: "Poll: {title} {choices}. Type !vote 1 to {count}{native}",
    native: " (on {platforms}: vote in the poll above the chat)",
    status: "Poll: {title} {standings}. Type !vote 1 to {count}",
    none: "There is no poll open.",
    already_open: "A poll is already open: end it first.",
    over: "The poll is over.",
    vote_usage: "@{user} type !vote 1 to {count}.",
    vote_native: "@{user} vote in the {platform} poll above the chat.",
    full: "@{user} the poll takes no more votes.",
    won: "Poll over: {title} {winner} wins with {votes} votes ({percent}%).",
    tie: "Poll over: {title} a tie between {winners} with {votes} votes each.",
    no_votes: "Poll over: {title} nobody voted.",
    usage: "Usage: !poll start Title | choice 1 | choice 2 ... or !poll end",
  },
  de: {
    started: "Umfrage: {title} {choices}. Schreib !vote 1 bis {count}{native}",
    native: " (auf {platforms}: stimm in der Umfrage über dem Chat ab)",
    status: "Umfrage: {title} {standings}. Schreib !vote 1 bis {count}",
    none: "Es läuft keine Umfrage.",
    already_open: "Es läuft schon eine Umfrage: beende sie zuerst.",
    over: "Die Umfrage ist vorbei.",
    vote_usage: "@{user} schreib !vote 1 bis {count}.",
    vote_native: "@{user} stimm in der {platform}-Umfrage über dem Chat ab.",
    full: "@{user} die Umfrage nimmt keine Stimmen mehr an.",
    won: "Umfrage beendet: {title} {winner} gewinnt mit {votes} Stimmen ({percent} %).",
    tie: "Umfrage beendet: {title} Gleichstand zwischen {winners} mit je {votes} Stimmen.",
    no_votes: "Umfrage beendet: {title} niemand hat abgestimmt.",
    usage: "Verwendung: !poll start Titel | Antwort 1 | Antwort 2 ... oder !poll end",
  },
} as const satisfies Record<BotLanguage, Record<string, string>>;

/** A key of the polls' chat messages. */
export type PollMessageKey = keyof (typeof MESSAGES)["en"];

/** The polls' message `key` in `language`. */
export function pollMessage(language: BotLanguage, key: PollMessageKey, params: Readonly<Record<string, string | number>> = {}): string {
  return fillBotMessage(MESSAGES[language][key], params);
}
