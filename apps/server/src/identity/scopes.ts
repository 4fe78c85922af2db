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

/** OpenID Connect scopes: `openid` (an ID token and `/oauth/userinfo`), `profile`, `email`, `offline_access`. */
export const OIDC_SCOPES = ["openid", "profile", "email", "offline_access"] as const;

/** A named scope. */
export type Scope = (typeof SCOPES)[number];

/** The wildcard scope: requesting `*` grants every scope, present and future. */
export const WILDCARD_SCOPE = "*";

/** Every scope value the authorization server accepts. */
export const ALL_SCOPE_VALUES: readonly string[] = [...SCOPES, WILDCARD_SCOPE];

/** Human wording of each scope, shown on the consent page. */
export const SCOPE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  "user:read": "Read your profile (name, email address, avatar)",
  "user:manage": "Change your profile",
  "user:manage:credentials": "Manage your personal access tokens",
  connections: "See the platform accounts linked to your account",
  "alerts:manage": "Trigger and configure your alerts",
  "chatbot:read": "Read your chat-bot settings and commands",
  "chatbot:manage": "Manage your chat-bot",
  "chatbot:manage:commands": "Create, change and delete your chat-bot commands",
  "widgets:manage": "Manage your widgets and browser sources",
  "academy:read": "Read your academy progress",
  "academy:manage": "Manage your academy progress",
  "affiliate:manage": "Manage your affiliate settings",
  "analytics:read": "Read your analytics",
  "chatbot:manage:moderation": "Manage your chat-bot's moderation",
  "chatbot:manage:timers": "Manage your chat-bot's timers",
  "chatbot:manage:giveaways": "Manage your chat-bot's giveaways",
  "donations:read": "Read your donations",
  "donations:manage": "Manage your donations",
  "entitlements:read": "Read your entitlements",
  "extensions:read": "Read your extensions",
  "extensions:manage": "Manage your extensions",
  "linkspree:manage": "Manage your link page",
  "orders:manage": "Manage your orders",
  "subscription:read": "Read your subscription",
  profile: "Read your name and avatar",
  email: "Read your email address",
  "*": "Full access to your account",
  openid: "Know who you are",
  offline_access: "Stay connected while you are away",
};

/** True when `granted` (a token's scopes) covers `needed`; `*` covers everything. */
export function hasScope(granted: readonly string[], needed: string): boolean {
  return granted.includes(WILDCARD_SCOPE) || granted.includes(needed);
}

/** Every scope value an authorization request may name; anything else is `invalid_scope`. */
export const AUTHORIZE_SCOPES: ReadonlySet<string> = new Set<string>([...ALL_SCOPE_VALUES, ...OIDC_SCOPES]);
