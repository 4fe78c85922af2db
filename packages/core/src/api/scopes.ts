/**
 * The 24 documented scopes an access token can carry (listed in docs/identity.md).
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

/** A named scope. */
export type Scope = (typeof SCOPES)[number];

/** The wildcard scope: requesting `*` grants every scope, present and future. */
export const WILDCARD_SCOPE = "*";

/** Every scope value the authorization server accepts. */
export const ALL_SCOPE_VALUES: readonly string[] = [...SCOPES, WILDCARD_SCOPE];
