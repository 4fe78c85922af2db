import { matchesHash } from "../crypto/secrets.js";
import { ApiError } from "../errors.js";
import { PAT_PREFIX } from "../store/personal-access-tokens.js";
import { CHAT_TOKEN_LIFETIME_MS } from "./admin-protocol.js";
import type { Repositories } from "../store/repositories.js";

/** Name of the token `ovation chat` gets from the admin socket. */
export const CHAT_TOKEN_NAME = "ovation chat";
/** Scopes of that token: just enough to open the console. */
export const CHAT_TOKEN_SCOPES = ["chatbot:read"] as const;

/**
 * Issues the `ovation chat` token of a user named (or numbered) `user` and revokes that user's
 * earlier live chat tokens, so at most one is valid per user. Returns the raw token.
 */
export function issueChatToken(repos: Repositories, user: string): string {
  const owner = repos.users.findByName(user) ?? (/^\d+$/.test(user) ? repos.users.get(Number(user)) : null);
  if (!owner) throw new ApiError("OVATION_ERR_CLI_USER_NOT_FOUND", { message: `No user named ${user}.` });
  for (const earlier of repos.tokens.listForUser(owner.id)) {
    if (earlier.name === CHAT_TOKEN_NAME && earlier.revoked_at === null) repos.tokens.revoke(earlier.id);
  }
  return repos.tokens.create({ user_id: owner.id, name: CHAT_TOKEN_NAME, scopes: CHAT_TOKEN_SCOPES, lifetime_ms: CHAT_TOKEN_LIFETIME_MS }).token;
}

/**
 * Revokes a chat token given its raw value (compared with the stored hash in constant time).
 * Returns false when it is not a live `ovation chat` token, so other tokens cannot be revoked this way.
 */
export function revokeChatToken(repos: Repositories, token: string): boolean {
  const id = new RegExp(`^${PAT_PREFIX}(\\d+)_`).exec(token)?.[1];
  const record = id === undefined ? null : repos.tokens.get(Number(id));
  if (!record || record.name !== CHAT_TOKEN_NAME || !matchesHash(token, record.token_hash)) return false;
  return repos.tokens.revoke(record.id);
}
