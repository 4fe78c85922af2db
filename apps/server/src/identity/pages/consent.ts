import { SCOPE_DESCRIPTIONS } from "../scope-descriptions.js";
import { escapeHtml } from "./html.js";
import { renderPage } from "./layout.js";

/** The consent page: which app asks for what, approve or deny. */
export function renderConsent(view: { uid: string; clientName: string; userName: string; scopes: readonly string[] }): string {
  const uid = encodeURIComponent(view.uid);
  const items = view.scopes.map((s) => `<li><strong>${escapeHtml(SCOPE_DESCRIPTIONS[s] ?? s)}</strong> <span class="muted">(${escapeHtml(s)})</span></li>`).join("");
  return renderPage({
    title: "Authorize",
    body: `<h1>Authorize ${escapeHtml(view.clientName)}</h1>
<p>Signed in as <strong>${escapeHtml(view.userName)}</strong>.</p>
<p><strong>${escapeHtml(view.clientName)}</strong> asks to:</p>
<ul class="scopes">${items || "<li>Know who you are</li>"}</ul>
<form method="post" action="/oauth/interaction/${uid}/confirm"><button type="submit">Allow</button></form>
<form method="post" action="/oauth/interaction/${uid}/abort"><button type="submit" class="secondary">Deny</button></form>`,
  });
}
