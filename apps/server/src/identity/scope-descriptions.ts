import { ALL_SCOPE_VALUES, OIDC_SCOPES } from "@ovation/core/contracts";

export { SCOPES, OIDC_SCOPES, WILDCARD_SCOPE, ALL_SCOPE_VALUES, hasScope } from "@ovation/core/contracts";
export type { Scope } from "@ovation/core/contracts";

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
  "chatbot:manage:points": "Manage your chat-bot's loyalty points",
  "chatbot:manage:quotes": "Manage your chat-bot's quotes",
  "chatbot:manage:giveaways": "Manage your chat-bot's giveaways",
  "chatbot:manage:queue": "Manage your chat-bot's viewer queue",
  "chatbot:manage:polls": "Start and end your chat-bot's polls",
  "chatbot:manage:shoutouts": "Give shoutouts and manage your chat-bot's shoutout settings",
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

/** Every scope value an authorization request may name; anything else is `invalid_scope`. */
export const AUTHORIZE_SCOPES: ReadonlySet<string> = new Set<string>([...ALL_SCOPE_VALUES, ...OIDC_SCOPES]);
