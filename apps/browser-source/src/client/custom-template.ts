import { fillMessage } from "@ovation/core/alerts";

/** A variant 3 inline template: custom HTML/CSS/JS with `{key}` custom fields. */
export interface CustomTemplate {
  user_defaults: boolean;
  html: string;
  css: string;
  js: string;
  fields: Record<string, string>;
}

/** Largest html/css/js the page accepts from a variant 3 template, per part, in characters. */
export const MAX_CUSTOM_PART_LENGTH = 200_000;

/** True when `template` has the shape of a variant 3 template (html, css or js present). */
export function isCustomTemplate(template: unknown): template is Record<string, unknown> {
  if (template === null || typeof template !== "object" || Array.isArray(template)) return false;
  const record = template as Record<string, unknown>;
  return typeof record.html === "string" || typeof record.css === "string" || typeof record.js === "string";
}

function part(value: unknown): string {
  return typeof value === "string" ? value.slice(0, MAX_CUSTOM_PART_LENGTH) : "";
}

/** Reads a variant 3 template, keeping only string fields. */
export function toCustomTemplate(template: Readonly<Record<string, unknown>>): CustomTemplate {
  const fields: Record<string, string> = {};
  if (template.fields !== null && typeof template.fields === "object" && !Array.isArray(template.fields)) {
    for (const [key, value] of Object.entries(template.fields as Record<string, unknown>)) {
      if (typeof value === "string") fields[key] = value;
      else if (typeof value === "number" || typeof value === "boolean") fields[key] = String(value);
    }
  }
  return { user_defaults: template.user_defaults === true, html: part(template.html), css: part(template.css), js: part(template.js), fields };
}

/** Where a `{key}` field value lands; each context escapes differently. */
export type FieldContext = "html" | "css" | "js";

/** Escapes a field value for a context so it stays a value there (text, a CSS token, a JS string body). */
export function escapeFieldValue(value: string, context: FieldContext): string {
  switch (context) {
    case "html":
      return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    case "css":
      return value.replace(/[^A-Za-z0-9 #%.,()_+-]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `);
    case "js":
      return value.replace(/[^A-Za-z0-9 #%.,_+-]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  }
}

/**
 * Replaces each `{key}` of a custom field in `source` with the field's value (whose own `{{key}}`
 * placeholders are filled from the alert data first), escaped for `context`. Braces that do not name a
 * field are left alone, so ordinary CSS and JS blocks pass through.
 */
export function substituteFields(
  source: string,
  fields: Readonly<Record<string, string>>,
  data: Readonly<Record<string, unknown>>,
  context: FieldContext,
): string {
  return source.replace(/\{([A-Za-z_][\w-]*)\}/g, (whole, key: string) =>
    Object.prototype.hasOwnProperty.call(fields, key) ? escapeFieldValue(fillMessage(fields[key] ?? "", data), context) : whole,
  );
}

function closeTagSafe(text: string, tag: "style" | "script"): string {
  return text.replace(new RegExp(`</(${tag})`, "gi"), "<\\/$1");
}

/**
 * The `srcdoc` of the sandboxed iframe for a variant 3 alert. The inline style and script carry the
 * page's CSP nonce (an `about:srcdoc` document inherits the page's policy); the frame itself gets
 * `sandbox="allow-scripts"` without same-origin, so the custom code cannot reach the page.
 */
export function customAlertDocument(template: CustomTemplate, data: Readonly<Record<string, unknown>>, nonce: string): string {
  const nonceAttribute = nonce === "" ? "" : ` nonce="${nonce.replace(/[^A-Za-z0-9+/=]/g, "")}"`;
  const css = closeTagSafe(substituteFields(template.css, template.fields, data, "css"), "style");
  const html = substituteFields(template.html, template.fields, data, "html");
  const js = closeTagSafe(substituteFields(template.js, template.fields, data, "js"), "script");
  return [
    "<!doctype html><html><head><meta charset=\"utf-8\">",
    `<style${nonceAttribute}>html,body{margin:0;background:transparent;overflow:hidden}</style>`,
    `<style${nonceAttribute}>${css}</style>`,
    "</head><body>",
    html,
    `<script${nonceAttribute}>${js}</script>`,
    "</body></html>",
  ].join("");
}
