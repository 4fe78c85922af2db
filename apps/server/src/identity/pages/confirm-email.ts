import { escapeHtml } from "./html.js";
import { renderPage } from "./layout.js";

/** The page of a verification link: the address and a button; only the button (a POST) confirms. */
export function renderConfirmEmail(email: string, token: string): string {
  return renderPage({
    title: "Confirm your email address",
    body: `<h1>Confirm your email address</h1>
<p>Make <strong>${escapeHtml(email)}</strong> the email address of your Ovation account?</p>
<form method="post" action="/api/email/verify">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">Confirm</button>
</form>`,
  });
}
