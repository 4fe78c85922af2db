/** The scopes a token may carry (reference-facts.md "Scopes used by this interface"); `*` grants all. */
export const KNOWN_SCOPES = [
  "user:read",
  "user:manage",
  "user:manage:credentials",
  "connections",
  "alerts:manage",
  "chatbot:read",
  "chatbot:manage",
  "chatbot:manage:commands",
  "widgets:manage",
  "*",
] as const;

/** Scopes of tokens made without `--scopes` and of the first-run token: what the quick start needs. */
export const DEFAULT_CLI_SCOPES = ["alerts:manage", "chatbot:manage:commands", "user:read"] as const;

/** Splits a scope list (spaces and/or commas) and returns unknown entries separately. */
export function parseScopes(text: string): { scopes: string[]; unknown: string[] } {
  const parts = [...new Set(text.split(/[\s,]+/).filter((s) => s.length > 0))];
  const known = new Set<string>(KNOWN_SCOPES);
  return { scopes: parts.filter((s) => known.has(s)), unknown: parts.filter((s) => !known.has(s)) };
}
