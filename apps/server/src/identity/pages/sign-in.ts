import { escapeHtml } from "./html.js";
import { renderPage } from "./layout.js";

/** A sign-in field that can carry an error. */
export type SignInField = "email" | "password" | "totp";

/**
 * The sign-in page of an authorization request. A field error is shown under its field, which is
 * marked `aria-invalid` and described by it; a general error (too many tries, an expired step)
 * sits above the form. `password` refills the password field after a wrong second-factor code.
 */
export function renderSignIn(view: {
  uid: string;
  clientName: string;
  email?: string;
  password?: string;
  error?: string;
  errorField?: SignInField;
  platforms: readonly { platform: string; displayName: string }[];
}): string {
  const uid = encodeURIComponent(view.uid);
  const general = view.error !== undefined && view.errorField === undefined ? `<p class="error" role="alert" id="sign-in-error">${escapeHtml(view.error)}</p>` : "";
  const fieldState = (name: SignInField): { attributes: string; message: string } =>
    view.error !== undefined && view.errorField === name
      ? { attributes: ` aria-invalid="true" aria-describedby="${name}-error"`, message: `<p class="error" role="alert" id="${name}-error">${escapeHtml(view.error)}</p>` }
      : { attributes: "", message: "" };
  const email = fieldState("email");
  const password = fieldState("password");
  const totp = fieldState("totp");
  const platforms =
    view.platforms.length === 0
      ? ""
      : `<section class="platforms" aria-labelledby="platforms-title"><h2 id="platforms-title" class="muted">Or continue with</h2>${view.platforms
          .map((p) => `<a class="button secondary" href="/oauth/interaction/${uid}/platform/${encodeURIComponent(p.platform)}">${escapeHtml(p.displayName)}</a>`)
          .join("")}</section>`;
  const passwordValue = view.password !== undefined && view.password.length > 0 ? ` value="${escapeHtml(view.password)}"` : "";
  return renderPage({
    title: "Sign in",
    body: `<h1>Sign in</h1>
<p><strong>${escapeHtml(view.clientName)}</strong> wants to use your Ovation account.</p>
${general}
<form method="post" action="/oauth/interaction/${uid}/login" novalidate>
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(view.email ?? "")}"${email.attributes}>
${email.message}
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${passwordValue}${password.attributes}>
${password.message}
<label for="totp">Authenticator code <span class="muted">(only if two-step verification is on)</span></label>
<input id="totp" name="totp" type="text" inputmode="numeric" autocomplete="one-time-code"${totp.attributes}${view.errorField === "totp" ? " autofocus" : ""}>
${totp.message}
<button type="submit">Sign in</button>
</form>
<p><a href="/password/forgot">Forgot your password?</a></p>
<form method="post" action="/oauth/interaction/${uid}/abort"><button type="submit" class="secondary">Cancel</button></form>
${platforms}`,
  });
}
