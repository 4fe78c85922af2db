/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Serialises JSON for a `<script type="application/json">` block (no `</script>` break-out). */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** A plain error page: a title and one sentence, no data. */
export function errorPage(title: string, sentence: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body style="font-family:sans-serif;color:#eee;background:#222"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(sentence)}</p></body></html>`;
}
