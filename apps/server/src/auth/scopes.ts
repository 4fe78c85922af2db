import { ALL_SCOPE_VALUES } from "@ovation/core/contracts";

/**
 * The scopes a token may carry: core's list of the 24 documented scopes and Ovation's own
 * (docs/identity.md) plus `*`, which grants all. One list serves the CLI, the API and OAuth.
 */
export const KNOWN_SCOPES: readonly string[] = ALL_SCOPE_VALUES;

/**
 * Scopes of tokens made without `--scopes` and of the first-run token: what the quick start and the
 * curl examples of the docs need (alerts, commands, counters, timers, giveaways, moderation, goal bars).
 */
export const DEFAULT_CLI_SCOPES = [
  "alerts:manage",
  "chatbot:read",
  "chatbot:manage",
  "chatbot:manage:commands",
  "chatbot:manage:timers",
  "chatbot:manage:points",
  "chatbot:manage:quotes",
  "chatbot:manage:giveaways",
  "chatbot:manage:moderation",
  "chatbot:manage:queue",
  "chatbot:manage:polls",
  "chatbot:manage:shoutouts",
  "widgets:manage",
  "user:read",
] as const;

/** Splits a scope list (spaces and/or commas) and returns unknown entries separately. */
export function parseScopes(text: string): { scopes: string[]; unknown: string[] } {
  const parts = [...new Set(text.split(/[\s,]+/).filter((s) => s.length > 0))];
  const known = new Set<string>(KNOWN_SCOPES);
  return { scopes: parts.filter((s) => known.has(s)), unknown: parts.filter((s) => !known.has(s)) };
}
