import { renderPage } from "./layout.js";

/** The sign-out confirmation; `form` is oidc-provider's hidden form (with its anti-forgery field). */
export function renderLogout(form: string): string {
  return renderPage({
    title: "Sign out",
    body: `<h1>Sign out?</h1>
<p>Do you want to sign out of Ovation in this browser?</p>
${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Yes, sign me out</button>
<button type="submit" form="op.logoutForm" class="secondary">No, stay signed in</button>`,
  });
}

/** Shown after signing out when the app gave no address to return to. */
export function renderLoggedOut(): string {
  return renderPage({ title: "Signed out", body: `<h1>Signed out</h1><p role="status">You are signed out. You can close this page.</p>` });
}

/** Shown after "No, stay signed in". */
export function renderStillSignedIn(): string {
  return renderPage({ title: "Still signed in", body: `<h1>Still signed in</h1><p role="status">You are still signed in to Ovation in this browser. You can close this page.</p>` });
}
