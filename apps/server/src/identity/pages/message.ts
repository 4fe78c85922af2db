import { escapeHtml } from "./html.js";
import { renderPage } from "./layout.js";

/** A page with a heading and one message (email verified, link expired...). */
export function renderMessage(title: string, message: string): string {
  return renderPage({ title, body: `<h1>${escapeHtml(title)}</h1><p role="status">${escapeHtml(message)}</p>` });
}
