import type { OutgoingMessage } from "../../../plugins/contract.js";
import type { BotCommand } from "../../command-record.js";

/** What happened to one chat message; `action` is what to send to chat, if anything. */
export type CommandOutcome =
  | { status: "not_command" }
  | { status: "no_match" }
  | { status: "permission"; command: string; required: number; caller: number }
  | { status: "disabled"; command: string; enable_when: BotCommand["enable_when"]; live: boolean }
  | { status: "cooldown"; command: string; scope: "global" | "user"; remaining_seconds: number }
  | { status: "price"; command: string; price: number; balance: number; action: OutgoingMessage | null }
  | { status: "empty"; command: string }
  | { status: "error"; command: string; error: string; action: OutgoingMessage | null }
  | { status: "sent"; command: string; action: OutgoingMessage };
