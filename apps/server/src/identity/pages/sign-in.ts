import { escapeHtml } from "./html.js";
import { renderPage } from "./layout.js";

/** The sign-in page of an authorization request. */
export function renderSignIn(view: {
  uid: string;
  clientName: string;
  email?: string;
  error?: string;
  platforms: readonly { platform: string; displayName: string }[];
}): string {
  const uid = encodeURIComponent(view.uid);
  const error = view.error ? `<p class="error" role="alert" id="sign-in-error">${escapeHtml(view.error)}</p>` : "";
  const described = view.error ? ' aria-describedby="sign-in-error" aria-invalid="true"' : "";
  const platforms =
    view.platforms.length === 0
      ? ""
      : `<section class="platforms" aria-labelledby="platforms-title"><h2 id="platforms-title" class="muted">Or continue with</h2>${view.platforms
          .map((p) => `<a class="button secondary" href="/oauth/interaction/${uid}/platform/${encodeURIComponent(p.platform)}">${escapeHtml(p.displayName)}</a>`)
          .join("")}</section>`;
  return renderPage({
    title: "Sign in",
    body: `<h1>Sign in</h1>
<p><strong>${escapeHtml(view.clientName)}</strong> wants to use your Ovation account.</p>
${error}
<form method="post" action="/oauth/interaction/${uid}/login" novalidate>
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(view.email ?? "")}"${described}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${described}>
<label for="totp">Authenticator code <span class="muted">(only if two-step verification is on)</span></label>
<input id="totp" name="totp" type="text" inputmode="numeric" autocomplete="one-time-code">
<button type="submit">Sign in</button>
</form>
<form method="post" action="/oauth/interaction/${uid}/abort"><button type="submit" class="secondary">Cancel</button></form>
${platforms}`,
  });
}
