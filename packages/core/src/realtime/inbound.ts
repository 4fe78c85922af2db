import * as z from "zod";

/**
 * Bounds of what clients may send on sockets. Every inbound event is checked against its schema in
 * {@link INBOUND_EVENT_SCHEMAS} / {@link CONSOLE_INBOUND_EVENT_SCHEMAS} before the server looks at it.
 */
export const REALTIME_INBOUND_LIMITS = {
  /** Longest room id accepted by `room`. */
  roomIdMaxLength: 256,
  /** Longest notification id accepted by `ack`. */
  notificationIdMaxLength: 128,
  /** Longest line accepted by the console's `line` (Twitch's message limit). */
  consoleLineMaxLength: 500,
} as const;

/** Arguments of `room`: one room id string. */
export const roomEventArgsSchema = z.tuple([
  z.string().min(1, "room: must not be empty").max(REALTIME_INBOUND_LIMITS.roomIdMaxLength, `room: at most ${REALTIME_INBOUND_LIMITS.roomIdMaxLength} characters`),
]);

/** Arguments of `ack`: one notification id string. */
export const ackEventArgsSchema = z.tuple([
  z
    .string()
    .min(1, "ack: must not be empty")
    .max(REALTIME_INBOUND_LIMITS.notificationIdMaxLength, `ack: at most ${REALTIME_INBOUND_LIMITS.notificationIdMaxLength} characters`),
]);

/** Arguments of the console's `line` (the acknowledgement callback is not part of them). */
export const consoleLineArgsSchema = z.tuple([
  z
    .string()
    .max(REALTIME_INBOUND_LIMITS.consoleLineMaxLength, `line: at most ${REALTIME_INBOUND_LIMITS.consoleLineMaxLength} characters`)
    .refine((text) => text.trim() !== "", "line: must not be blank"),
]);

/** The schema of each event of the main namespace's `ClientToServerEvents`. */
export const INBOUND_EVENT_SCHEMAS = {
  room: roomEventArgsSchema,
  ack: ackEventArgsSchema,
} as const;

/** The schema of each event of the `/console` namespace's `ConsoleClientEvents`. */
export const CONSOLE_INBOUND_EVENT_SCHEMAS = {
  line: consoleLineArgsSchema,
} as const;
