/** Escapes text for an HTML text node or a double-quoted attribute value. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/**
 * Serializes `value` as JSON that is safe inside a `<script>` element: `<`, `>` and `&` become
 * `\u003c`-style escapes (so `</script>` or `<!--` in a value cannot end the element), and so do the
 * line separators U+2028/U+2029. `JSON.parse` of the element's text gives back `value` unchanged.
 */
export function jsonForScriptElement(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll("<", "\\u003c")
    .replaceAll(">", "\\u003e")
    .replaceAll("&", "\\u0026")
    .replaceAll("\u2028", "\\u2028")
    .replaceAll("\u2029", "\\u2029");
}
