import { randomBytes } from "node:crypto";
import type { Store } from "./store.js";

/** Extension key of the secrets in the store document. */
export const SIGNING_SECRETS_EXTENSION = "bot_signing_secrets";
const KEY = SIGNING_SECRETS_EXTENSION;

function newSecret(): string {
  return `ovsig_${randomBytes(32).toString("base64url")}`;
}

/**
 * Per-user secrets that sign the bot's outbound template calls (`proxy_pass`, `json`) with
 * HMAC-SHA256 (`X-Ovation-Signature`). The receiver needs the same secret to verify, so it is kept as
 * issued (an HMAC key cannot be hashed); it is made on first use and survives restarts.
 */
export class SigningSecretsRepository {
  readonly #secrets: { read(): Record<string, string>; update<R>(fn: (value: Record<string, string>) => R): R };

  constructor(store: Store) {
    this.#secrets = store.extension<Record<string, string>>(KEY, () => ({}));
  }

  /** The user's secret, made and stored on first use. */
  get(userId: number): string {
    const existing = this.#secrets.read()[String(userId)];
    if (existing !== undefined) return existing;
    return this.#secrets.update((secrets) => (secrets[String(userId)] ??= newSecret()));
  }

  /** Replaces the user's secret (after a leak) and returns the new one. */
  rotate(userId: number): string {
    const secret = newSecret();
    this.#secrets.update((secrets) => {
      secrets[String(userId)] = secret;
    });
    return secret;
  }
}
