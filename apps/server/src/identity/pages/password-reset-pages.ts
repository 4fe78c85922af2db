import { escapeHtml } from "./html.js";
import { renderPage } from "./layout.js";

/** "Forgot your password?": one field, the address. */
export function renderForgotPassword(view: { error?: string } = {}): string {
  const error = view.error ? `<p class="error" role="alert" id="email-error">${escapeHtml(view.error)}</p>` : "";
  const invalid = view.error ? ' aria-invalid="true" aria-describedby="email-error"' : "";
  return renderPage({
    title: "Forgot your password?",
    body: `<h1>Forgot your password?</h1>
<p>Enter the email address of your account: we mail you a link to choose a new password.</p>
<form method="post" action="/password/forgot" novalidate>
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="username" required${invalid}>
${error}
<button type="submit">Send the link</button>
</form>`,
  });
}

/** The page of a reset link: the new password (twice is not asked: the rules are shown instead). */
export function renderResetPassword(view: { token: string; errors?: readonly string[] }): string {
  const errors = view.errors ?? [];
  const error = errors.length > 0 ? `<div class="error" role="alert" id="password-error">${errors.map((e) => `<p>${escapeHtml(e)}</p>`).join("")}</div>` : "";
  const invalid = errors.length > 0 ? ' aria-invalid="true" aria-describedby="password-error"' : ' aria-describedby="password-rules"';
  return renderPage({
    title: "Choose a new password",
    body: `<h1>Choose a new password</h1>
<form method="post" action="/password/reset" novalidate>
<input type="hidden" name="token" value="${escapeHtml(view.token)}">
<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required${invalid}>
${error}
<p class="muted" id="password-rules">At least 10 characters; not a common password, your name or your email address.</p>
<button type="submit">Change password</button>
</form>`,
  });
}
