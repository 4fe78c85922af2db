import { z } from "zod";
import type { BotRouteErrorEntry } from "../route-errors.js";

/**
 * The timer routes' error codes, each with its status, message and meaning (the server's registry
 * spreads this table; apps/server/README.md documents them).
 */
export const TIMERS_ERROR_CODES = {
  OVATION_ERR_TIMERS_NOT_FOUND: { status: 404, message: "No such timer.", description: "The timer does not exist or belongs to another user." },
  OVATION_ERR_TIMERS_NAME_TAKEN: { status: 422, message: "The name has already been taken.", description: "Another timer of the bot has this name (names compare case-insensitively)." },
} as const satisfies Readonly<Record<string, BotRouteErrorEntry>>;

/** How a timer message is sent (a reply has nothing to answer). */
export const TIMER_SEND_AS = ["say", "action", "announce"] as const;

/** Bounds of a timer; documented in docs/timers.md. */
export const TIMER_LIMITS = {
  nameLength: 64,
  messageLength: 2_000,
  minIntervalMinutes: 1,
  maxIntervalMinutes: 1_440,
  maxChatLines: 10_000,
  timersPerBot: 50,
} as const;

/**
 * A timer: `message` (plain text or a sandboxed template, like a command response) is posted every
 * `interval_minutes` while the stream is online, on each platform where at least `min_chat_lines`
 * chat messages were seen since the timer last posted there. `platforms` limits it to some
 * platforms; empty means every platform the bot hears chat on.
 */
export const timerSchema = z.object({
  name: z.string().trim().min(1).max(TIMER_LIMITS.nameLength),
  message: z.string().trim().min(1).max(TIMER_LIMITS.messageLength),
  interval_minutes: z.number().int().min(TIMER_LIMITS.minIntervalMinutes).max(TIMER_LIMITS.maxIntervalMinutes).default(15),
  min_chat_lines: z.number().int().min(0).max(TIMER_LIMITS.maxChatLines).default(5),
  platforms: z
    .array(z.string().trim().toLowerCase().min(1).max(32))
    .max(20)
    .default([])
    .transform((list) => [...new Set(list)]),
  send_as: z.enum(TIMER_SEND_AS).default("say"),
  enabled: z.boolean().default(true),
});

/** A validated timer. */
export type Timer = z.output<typeof timerSchema>;
/** A timer as written (defaults may be left out). */
export type TimerInput = z.input<typeof timerSchema>;
