/**
 * The scopes an access token can carry: the reference's 24 documented ones and Ovation's own bot-module
 * scopes (`chatbot:manage:points`, `chatbot:manage:quotes`), listed in docs/identity.md. Shared by the
 * server (tokens, OAuth, socket rooms) and clients, so it lives below both.
 * A scope that guards nothing here is still granted and listed on the token.
 */
export const SCOPES = [
  "academy:read",
  "academy:manage",
  "alerts:manage",
  "affiliate:manage",
  "analytics:read",
  "chatbot:read",
  "chatbot:manage",
  "chatbot:manage:commands",
  "chatbot:manage:moderation",
  "chatbot:manage:timers",
  "chatbot:manage:points",
  "chatbot:manage:quotes",
  "chatbot:manage:giveaways",
  "connections",
  "donations:read",
  "donations:manage",
  "entitlements:read",
  "extensions:read",
  "extensions:manage",
  "linkspree:manage",
  "orders:manage",
  "subscription:read",
  "user:read",
  "user:manage",
  "user:manage:credentials",
  "widgets:manage",
] as const;

/** OpenID Connect scopes: `openid` (an ID token and `/oauth/userinfo`), `profile`, `email`, `offline_access`. */
export const OIDC_SCOPES = ["openid", "profile", "email", "offline_access"] as const;

/** A named scope. */
export type Scope = (typeof SCOPES)[number];

/** The wildcard scope: requesting `*` grants every scope, present and future. */
export const WILDCARD_SCOPE = "*";

/** Ovation's own scopes, for bot modules the reference has no scope for (docs/identity.md). */
export const OVATION_SCOPES = ["chatbot:manage:queue", "chatbot:manage:polls", "chatbot:manage:shoutouts"] as const;

/** Every scope value the authorization server accepts. */
export const ALL_SCOPE_VALUES: readonly string[] = [...SCOPES, ...OVATION_SCOPES, WILDCARD_SCOPE];

/** True when `granted` (a token's scopes) covers `needed`; `*` covers everything. */
export function hasScope(granted: readonly string[], needed: string): boolean {
  return granted.includes(WILDCARD_SCOPE) || granted.includes(needed);
}
