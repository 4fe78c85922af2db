/**
 * Placeholders `{{name}}` / `{{ name }}` (dotted paths allowed: `{{ user.name }}`, `{{ emotes.0.id }}`)
 * filled from alert data. A missing key, or a value that is not a string, number or boolean, becomes
 * the empty string. Anything else between braces (`{{ name | upper }}`, `{single}`) stays as written.
 */
const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_$-]+(?:\.[A-Za-z0-9_$-]+)*)\s*\}\}/g;

/** One piece of a filled template: literal template text, or a value taken from alert data. */
export interface PlaceholderSegment {
  readonly text: string;
  /** True when the text comes from alert data (viewer-supplied): render it as text, never as markup. */
  readonly fromData: boolean;
}

/** Reads a dotted path through own properties only (never the prototype chain). */
export function lookupPath(data: unknown, path: string): unknown {
  let current: unknown = data;
  for (const part of path.split(".")) {
    if (current === null || typeof current !== "object") return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** The text a data value shows as in a placeholder. */
export function placeholderText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  return "";
}

/**
 * Splits a template into literal and data segments, for a renderer that inserts each as a text node
 * (so `<b>` in a viewer's name shows as `<b>`). Empty segments are left out.
 */
export function renderPlaceholderSegments(template: string, data: unknown): PlaceholderSegment[] {
  const segments: PlaceholderSegment[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const start = match.index;
    if (start > last) segments.push({ text: template.slice(last, start), fromData: false });
    const text = placeholderText(lookupPath(data, match[1] as string));
    if (text !== "") segments.push({ text, fromData: true });
    last = start + match[0].length;
  }
  if (last < template.length) segments.push({ text: template.slice(last), fromData: false });
  return segments;
}

/** Fills placeholders and returns plain text (for chat messages and `textContent`; not for innerHTML). */
export function fillMessage(template: string, data: unknown): string {
  if (!template.includes("{{")) return template;
  return template.replace(PLACEHOLDER, (_match, path: string) => placeholderText(lookupPath(data, path)));
}

/** Escapes `& < > " '` so a string can be placed in HTML text or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Fills placeholders and returns an HTML-safe string: template text and data values are both
 * escaped, so neither can become markup.
 */
export function renderPlaceholdersHtml(template: string, data: unknown): string {
  return renderPlaceholderSegments(template, data)
    .map((segment) => escapeHtml(segment.text))
    .join("");
}

/** The dotted paths a template refers to, in order of first use. */
export function placeholderPaths(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1] as string))];
}
