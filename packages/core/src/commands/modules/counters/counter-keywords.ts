import type { ChatEvent } from "../../../chat/event.js";
import type { OutgoingMessage } from "../../../plugins/contract.js";
import { PERMISSION_LEVELS, permissionLevelOf } from "../../permission-levels.js";
import { CounterRangeError, type Counter, type KeyValueCounters } from "./key-value-counters.js";

/** `!<keyword>` alone, or followed by `+` or `-` (anything after that is ignored). */
const KEYWORD_MESSAGE = /^!([A-Za-z0-9_-]{1,32})(?:\s+([+-])(?:\s|$))?/;

/**
 * Answers a counter's keyword in chat: `!<keyword>` shows `<name>: <value>` to anyone,
 * `!<keyword> +` / `!<keyword> -` add or take 1 when the sender is a moderator or the broadcaster
 * (from anyone else the value is shown unchanged). Only active counters answer. Runs after the
 * custom commands found no command, so a command of the same name wins. The channel is the chat
 * event's `channel.id`.
 */
export async function answerCounterKeyword(counters: KeyValueCounters, event: ChatEvent): Promise<OutgoingMessage | null> {
  const match = KEYWORD_MESSAGE.exec(event.message);
  if (!match?.[1]) return null;
  const channel = event.channel.id;
  const counter = await counters.byKeyword(channel, match[1].toLowerCase());
  if (!counter) return null;
  const sign = match[2];
  const allowed = permissionLevelOf(event) >= PERMISSION_LEVELS.moderator;
  let shown: Pick<Counter, "value"> | null = counter;
  try {
    if (sign !== undefined && allowed) shown = await counters.change(channel, counter.name, sign === "+" ? "increment" : "decrement", 1);
  } catch (error) {
    if (!(error instanceof CounterRangeError)) throw error;
    return { channel: event.channel, text: `${counter.name}: ${counter.value ?? 0} (at its limit, 2^53 - 1)`, send_as: "say", reply_to: null };
  }
  return { channel: event.channel, text: `${counter.name}: ${shown?.value ?? 0}`, send_as: "say", reply_to: null };
}
