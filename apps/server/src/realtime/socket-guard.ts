import type { SocketErrorPayload } from "@ovation/core";
import type { Logger } from "pino";
import type { z } from "zod";
import { ERROR_CODES } from "../errors.js";

/** An acknowledgement callback a client passed as the last argument of an event. */
export type SocketAck = (...args: unknown[]) => void;

/** The untyped surface of a socket.io server socket this guard needs (any namespace). */
interface RawSocket {
  readonly id: string;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  emit(event: "error", payload: SocketErrorPayload): unknown;
  use(middleware: (packet: unknown[], next: (error?: Error) => void) => void): unknown;
}

/** What a guarded handler receives besides its validated arguments. */
export interface GuardedEventOptions {
  logger: Logger;
  /**
   * Also answers the client's acknowledgement callback when the event is refused or fails (for
   * events whose clients wait on an ack, like the console's `line`).
   */
  refuseAck?: (ack: SocketAck, message: string) => void;
}

function report(socket: RawSocket, code: keyof typeof ERROR_CODES, event: string, message: string = ERROR_CODES[code].message): void {
  socket.emit("error", { code, message, event });
}

/**
 * Registers the one handler of `event` on `socket`: the arguments (without a trailing ack callback)
 * are checked against `schema` before anything else reads them; a bad payload gets an `error` event
 * with `OVATION_ERR_REALTIME_PAYLOAD_INVALID` and nothing else happens. A throw or rejection of the
 * handler is caught, logged and answered with `OVATION_ERR_REALTIME_HANDLER_FAILED`; it never reaches
 * the process. Every inbound socket event of every namespace goes through here.
 */
export function onGuardedEvent<S extends z.ZodType<readonly unknown[]>>(
  socket: object,
  event: string,
  schema: S,
  options: GuardedEventOptions,
  handler: (args: z.output<S>, ack: SocketAck | null) => unknown,
): void {
  const raw = socket as RawSocket;
  raw.on(event, (...received: unknown[]) => {
    const last = received.at(-1);
    const ack = typeof last === "function" ? (last as SocketAck) : null;
    const fail = (error: unknown): void => {
      options.logger.error({ err: error, event, socketId: raw.id }, "socket event handler failed");
      report(raw, "OVATION_ERR_REALTIME_HANDLER_FAILED", event);
      if (ack && options.refuseAck) options.refuseAck(ack, ERROR_CODES.OVATION_ERR_REALTIME_HANDLER_FAILED.message);
    };
    try {
      const parsed = schema.safeParse(ack ? received.slice(0, -1) : received);
      if (!parsed.success) {
        const message = `${ERROR_CODES.OVATION_ERR_REALTIME_PAYLOAD_INVALID.message} ${parsed.error.issues.map((issue) => issue.message).join("; ")}`.slice(0, 500);
        report(raw, "OVATION_ERR_REALTIME_PAYLOAD_INVALID", event, message);
        if (ack && options.refuseAck) options.refuseAck(ack, message);
        return;
      }
      const result = handler(parsed.data, ack);
      if (result instanceof Promise) result.catch(fail);
    } catch (error) {
      fail(error);
    }
  });
}

/**
 * Drops any event of `socket` that is not in `known` with `OVATION_ERR_REALTIME_EVENT_UNKNOWN`, so
 * nothing registered later without a guard can see raw client input by accident.
 */
export function refuseUnknownEvents(socket: object, known: readonly string[]): void {
  const raw = socket as RawSocket;
  raw.use((packet, next) => {
    const name = packet[0];
    if (typeof name === "string" && known.includes(name)) {
      next();
      return;
    }
    report(raw, "OVATION_ERR_REALTIME_EVENT_UNKNOWN", typeof name === "string" ? name.slice(0, 64) : "");
  });
}
