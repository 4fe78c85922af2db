import { renderPage } from "./layout.js";

/** The identity host's front page (`/` when nothing else serves it). */
export function renderHome(): string {
  return renderPage({
    title: "Ovation account",
    body: `<h1>Ovation account</h1>
<p>This server signs you in to Ovation and to the apps you connect to it.</p>
<p>You sign in from an app: it sends you here and you come back to it signed in.</p>
<p class="muted">Operators: the API is described at <a href="/docs">/docs</a>.</p>`,
  });
}

/** `/signup`: how accounts come to be on a self-hosted server. */
export function renderSignup(): string {
  return renderPage({
    title: "Create an account",
    body: `<h1>Create an account</h1>
<p>Accounts on this Ovation server are created in two ways:</p>
<ul>
<li>the server's operator runs <code>ovation user create</code>;</li>
<li>you choose a platform (Twitch, YouTube, Kick, TikTok) on the sign-in page of an app, if the operator set it up: when no account has that platform account linked yet, the page offers to create one.</li>
</ul>
<p class="muted">There is no open sign-up form, so strangers cannot fill a private server with accounts.</p>`,
  });
}

/** The favicon (an SVG "O"), so a fresh browser's first request is not an error. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#4b2bd1"/><circle cx="16" cy="16" r="8.5" fill="none" stroke="#fff" stroke-width="4"/></svg>`;
