import type { OutgoingMessage } from "../../plugins/contract.js";
import type { BotAnswer } from "../runtime/bot-module.js";

/** A module's reply (an outgoing message on the line's channel) as an answer for the runtime. */
export function answerOf(message: OutgoingMessage): BotAnswer {
  return { text: message.text, send_as: message.send_as, reply_to: message.reply_to };
}
