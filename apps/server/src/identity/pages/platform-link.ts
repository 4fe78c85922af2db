import { escapeHtml } from "./html.js";
import { renderPage } from "./layout.js";

/**
 * The page an API-started link opens on: who links what to which Ovation account, before anything
 * happens. Signed in as that account, one button continues to the platform; otherwise the browser
 * needs the one-time code the app that started the link showed (a forwarded link alone links nothing).
 */
export function renderLinkConfirm(view: {
  id: string;
  platformName: string;
  accountName: string;
  /** The signed-in user of this browser, when it is the account the link is for. */
  signedInAsOwner: boolean;
  /** The signed-in user of this browser when it is someone else. */
  otherUser: string | null;
  error?: string;
}): string {
  const action = `/oauth/link/${encodeURIComponent(view.id)}`;
  const platform = escapeHtml(view.platformName);
  const account = escapeHtml(view.accountName);
  const error = view.error !== undefined ? `<p class="error" role="alert" id="code-error">${escapeHtml(view.error)}</p>` : "";
  const warning = `<p>The ${platform} account you sign in with next will be linked to the Ovation account <strong>${account}</strong>: whoever uses <strong>${account}</strong> can then sign in with it and run its channel's bot and alerts. Continue only if <strong>${account}</strong> is your account and you started this yourself.</p>`;
  const body = view.signedInAsOwner
    ? `${warning}
<form method="post" action="${action}"><button type="submit">Continue to ${platform}</button></form>`
    : `${view.otherUser !== null ? `<p class="error" role="alert">You are signed in as <strong>${escapeHtml(view.otherUser)}</strong>, not <strong>${account}</strong>. If someone sent you this link, close this page: it would link your ${platform} account to their Ovation account.</p>` : ""}
${warning}
<form method="post" action="${action}" novalidate>
<label for="code">Code shown by the app that started the link</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required${view.error !== undefined ? ` aria-invalid="true" aria-describedby="code-error" autofocus` : ""}>
${error}
<button type="submit">Continue to ${platform}</button>
</form>
<p class="muted">Or sign in as ${account} on this server and open the link again.</p>`;
  return renderPage({ title: `Link ${view.platformName}`, body: `<h1>Link a ${platform} account to ${account}?</h1>\n${body}` });
}

/**
 * "Continue with <platform>" found no Ovation account with that platform account linked: it says so
 * and lets the person choose, instead of silently creating a second account.
 */
export function renderNoLinkedAccount(view: { platformName: string; username: string; ticket: string; signInUrl: string | null }): string {
  const platform = escapeHtml(view.platformName);
  const signIn =
    view.signInUrl !== null
      ? `<a class="button secondary" href="${escapeHtml(view.signInUrl)}">Sign in with my email and password</a>`
      : "";
  return renderPage({
    title: "No account yet",
    body: `<h1>No Ovation account uses this ${platform} account</h1>
<p role="status">No Ovation account on this server has the ${platform} account <strong>${escapeHtml(view.username)}</strong> linked.</p>
<h2>Already have an Ovation account?</h2>
<p>Sign in with it, then connect ${platform} on the dashboard's Connections page: after that, "Continue with ${platform}" signs you in to it.</p>
${signIn}
<h2>New here?</h2>
<form method="post" action="/oauth/platform/new-account">
<input type="hidden" name="ticket" value="${escapeHtml(view.ticket)}">
<button type="submit">Create a new Ovation account with ${platform}</button>
</form>`,
  });
}
