/**
 * True when `source` has no template syntax (`{{`, `{%` or `{#`): the runtime can send it as it is
 * (trimmed and capped) without entering the sandbox.
 */
export function isPlainText(source: string): boolean {
  return !/\{[{%#]/.test(source);
}
