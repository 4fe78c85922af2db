import type { SocketErrorPayload } from "@ovation/core/contracts";

/**
 * A problem the socket reports: a refused handshake (`OVATION_ERR_REALTIME_UNAUTHENTICATED`,
 * `..._TOO_MANY_FAILURES` with `retryAfter`), or an `error` event of the server (a refused room
 * join names its `room`, a missing scope its `missingScopes`).
 */
export class OvationSocketError extends Error {
  override readonly name: string = "OvationSocketError";
  /** The registered `OVATION_ERR_REALTIME_...` code, or null when the server gave none (a network failure). */
  readonly code: string | null;
  /** The room of a refused join. */
  readonly room: string | null;
  /** The inbound event that was refused. */
  readonly event: string | null;
  /** Scopes the token lacks for the room. */
  readonly missingScopes: string[];
  /** Seconds to wait before the next handshake (throttled), or null. */
  readonly retryAfter: number | null;

  constructor(message: string, fields: { code?: string | null; room?: string | null; event?: string | null; missingScopes?: string[]; retryAfter?: number | null } = {}) {
    super(message);
    this.code = fields.code ?? null;
    this.room = fields.room ?? null;
    this.event = fields.event ?? null;
    this.missingScopes = fields.missingScopes ?? [];
    this.retryAfter = fields.retryAfter ?? null;
  }

  /** From the payload of the server's `error` event. */
  static fromPayload(payload: SocketErrorPayload): OvationSocketError {
    return new OvationSocketError(payload.message, { code: payload.code, room: payload.room ?? null, event: payload.event ?? null, missingScopes: payload.missing_scopes ?? [] });
  }

  /** From socket.io's `connect_error` (the server puts `{code, retry_after}` in `data`). */
  static fromConnectError(error: Error & { data?: unknown }): OvationSocketError {
    const data = error.data !== null && typeof error.data === "object" ? (error.data as Record<string, unknown>) : {};
    return new OvationSocketError(error.message, {
      code: typeof data["code"] === "string" ? data["code"] : null,
      retryAfter: typeof data["retry_after"] === "number" ? data["retry_after"] : null,
    });
  }
}
