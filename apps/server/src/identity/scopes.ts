/** The scopes an access token can carry (reference-facts.md, "Identity and OAuth 2.0"). */
export const SCOPES = [
  "user:read",
  "user:manage",
  "user:manage:credentials",
  "connections",
  "alerts:manage",
  "chatbot:read",
  "chatbot:manage",
  "chatbot:manage:commands",
  "chatbot:manage:moderation",
  "chatbot:manage:timers",
  "chatbot:manage:giveaways",
  "widgets:manage",
] as const;

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
  "chatbot:manage:moderation": "Configure your chat-bot's auto-moderation",
  "chatbot:manage:timers": "Create, change and delete your chat-bot's timers",
  "chatbot:manage:giveaways": "Run giveaways in your chat",
  "widgets:manage": "Manage your widgets and browser sources",
  "*": "Full access to your account",
  openid: "Know who you are",
  offline_access: "Stay connected while you are away",
};

/** True when `granted` (a token's scopes) covers `needed`; `*` covers everything. */
export function hasScope(granted: readonly string[], needed: string): boolean {
  return granted.includes(WILDCARD_SCOPE) || granted.includes(needed);
}
