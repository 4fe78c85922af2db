import { escapeHtml } from "./html.js";
import { renderPage } from "./layout.js";

/** A page with a heading and one message (email verified, link expired...), with an optional way back. */
export function renderMessage(title: string, message: string, back?: { href: string; label: string }): string {
  const link = back === undefined ? "" : `<p><a class="button secondary" href="${escapeHtml(back.href)}">${escapeHtml(back.label)}</a></p>`;
  return renderPage({ title, body: `<h1>${escapeHtml(title)}</h1><p role="status">${escapeHtml(message)}</p>${link}` });
}
