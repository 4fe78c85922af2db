import type { KeyObject } from "node:crypto";
import { RecentIds } from "@ovation/core/contracts";
import { parseKickPublicKey, verifyKickSignature } from "./signature.js";

/** Kick's webhook headers (lower case, as Node gives them). */
export const KICK_WEBHOOK_HEADERS = {
  messageId: "kick-event-message-id",
  subscriptionId: "kick-event-subscription-id",
  signature: "kick-event-signature",
  timestamp: "kick-event-message-timestamp",
  type: "kick-event-type",
  version: "kick-event-version",
} as const;

/** One webhook request as received: headers and the raw body, before any JSON parsing. */
export interface KickWebhookRequest {
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: string;
}

/** Why a webhook was refused. */
export type WebhookRefusal = "missing_header" | "stale_timestamp" | "bad_signature" | "malformed_body" | "replay";

/** The verdict on one webhook request; `status` is the HTTP status to answer. */
export type WebhookVerdict =
  | { accepted: true; status: 200; messageId: string; subscriptionId: string | null; type: string; version: string; timestamp: string; payload: unknown }
  | { accepted: false; status: number; reason: WebhookRefusal; detail: string; messageId: string | null; type: string | null };

/** Settings of a {@link KickWebhookVerifier}. */
export interface KickWebhookVerifierOptions {
  /** PEM of the public key webhooks must be signed with (Kick's published key in production). */
  publicKey: string;
  /** Largest accepted distance between `Kick-Event-Message-Timestamp` and now, in seconds. */
  toleranceSeconds: number;
  /** Message ids remembered for replay refusal. */
  remember?: number;
  /** The clock (tests). */
  now?: () => number;
}

const header = (headers: KickWebhookRequest["headers"], name: string): string | null => {
  const value = headers[name];
  const one = Array.isArray(value) ? value[0] : value;
  return typeof one === "string" && one.length > 0 ? one : null;
};

/**
 * Checks Kick webhook requests: all headers present, the timestamp inside the window, the RSA
 * signature over `messageId.timestamp.body` valid under the trusted key, the body JSON, and the
 * message id not seen before (Kick retries up to three times with the same id; a replay of a
 * captured request has it too). Only a verified request's id is remembered, so forged requests
 * cannot poison the replay memory.
 */
export class KickWebhookVerifier {
  readonly #key: KeyObject;
  readonly #toleranceMs: number;

  /** The timestamp window in ms (a message id must be remembered at least twice as long). */
  get toleranceMs(): number {
    return this.#toleranceMs;
  }
  readonly #seen: RecentIds;
  readonly #now: () => number;

  constructor(options: KickWebhookVerifierOptions) {
    this.#key = parseKickPublicKey(options.publicKey);
    this.#toleranceMs = options.toleranceSeconds * 1000;
    this.#seen = new RecentIds(options.remember ?? 50_000);
    this.#now = options.now ?? Date.now;
  }

  verify(request: KickWebhookRequest): WebhookVerdict {
    const verdict = this.check(request);
    // Answered 200: Kick stops retrying a delivery we already have, and the event is not processed twice.
    if (verdict.accepted && !this.#seen.add(verdict.messageId)) {
      return { accepted: false, status: 200, reason: "replay", detail: `message id ${verdict.messageId.slice(0, 64)} was already received`, messageId: verdict.messageId, type: verdict.type };
    }
    return verdict;
  }

  /**
   * Everything {@link verify} checks except the replay memory: for a host that remembers message ids
   * where they survive a restart (see the channels plugin's webhook route).
   */
  check(request: KickWebhookRequest): WebhookVerdict {
    const h = KICK_WEBHOOK_HEADERS;
    const messageId = header(request.headers, h.messageId);
    const type = header(request.headers, h.type);
    const refuse = (status: number, reason: WebhookRefusal, detail: string): WebhookVerdict => ({ accepted: false, status, reason, detail, messageId, type });
    const missing = [h.messageId, h.signature, h.timestamp, h.type, h.version].filter((name) => header(request.headers, name) === null);
    if (missing.length > 0) return refuse(400, "missing_header", `missing header ${missing.join(", ")}`);
    const timestamp = header(request.headers, h.timestamp) as string;
    const signature = header(request.headers, h.signature) as string;
    const sent = Date.parse(timestamp);
    if (Number.isNaN(sent)) return refuse(400, "stale_timestamp", `Kick-Event-Message-Timestamp is not an RFC 3339 time: ${timestamp.slice(0, 64)}`);
    const skew = Math.abs(this.#now() - sent);
    if (skew > this.#toleranceMs) {
      return refuse(403, "stale_timestamp", `timestamp ${timestamp.slice(0, 64)} is ${Math.round(skew / 1000)} s from now (window ${this.#toleranceMs / 1000} s)`);
    }
    if (!verifyKickSignature(this.#key, messageId as string, timestamp, request.body, signature)) {
      return refuse(403, "bad_signature", "Kick-Event-Signature does not verify under the trusted Kick public key");
    }
    let payload: unknown;
    try {
      payload = JSON.parse(request.body);
    } catch {
      return refuse(400, "malformed_body", "the body is not JSON");
    }
    return {
      accepted: true,
      status: 200,
      messageId: messageId as string,
      subscriptionId: header(request.headers, h.subscriptionId),
      type: type as string,
      version: header(request.headers, h.version) as string,
      timestamp,
      payload,
    };
  }
}
