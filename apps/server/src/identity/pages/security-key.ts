import { escapeHtml } from "./html.js";
import { renderPage } from "./layout.js";

/** Where the security-key step's script is served. */
export const SECURITY_KEY_SCRIPT_PATH = "/oauth/assets/security-key.js";

/**
 * The security-key step of a sign-in. The request options travel as inert JSON (with `<` escaped);
 * the script of this host runs `navigator.credentials.get` and posts the signed answer.
 */
export function renderSecurityKey(view: { uid: string; options: unknown; error?: string }): string {
  const uid = encodeURIComponent(view.uid);
  const json = JSON.stringify(view.options).replace(/</g, "\\u003c");
  const error = view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>` : "";
  return renderPage({
    title: "Security key",
    body: `<h1>Use your security key</h1>
<p>Insert or touch your security key to finish signing in.</p>
${error}
<p id="key-status" role="status"></p>
<form id="key-form" method="post" action="/oauth/interaction/${uid}/security-key">
<input type="hidden" name="assertion" id="assertion">
<noscript><p class="error">This step needs JavaScript.</p></noscript>
<button type="submit">Use security key</button>
</form>
<p class="muted">Lost your key? <a href="/oauth/interaction/${uid}">Go back</a> and sign in with your authenticator code instead, if you set one up.</p>
<script type="application/json" id="key-options">${json}</script>
<script src="${SECURITY_KEY_SCRIPT_PATH}" defer></script>`,
  });
}

/** The script of the security-key step (plain ES5-ish JavaScript, no dependencies). */
export const SECURITY_KEY_SCRIPT = `(function () {
  "use strict";
  var form = document.getElementById("key-form");
  var status = document.getElementById("key-status");
  function fromB64(s) {
    var b = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4));
    var out = new Uint8Array(b.length);
    for (var i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
    return out;
  }
  function toB64(buffer) {
    var bytes = new Uint8Array(buffer), s = "";
    for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return btoa(s).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  }
  var pending = null;
  function message(error) {
    if (error && error.name === "NotAllowedError") return "The security key request was cancelled or timed out. Press \u201cUse security key\u201d to try again.";
    if (error && error.name === "InvalidStateError") return "This security key is not registered for your account. Try another key.";
    return "Your security key did not respond. Check that it is plugged in, then press \u201cUse security key\u201d to try again.";
  }
  function run(event) {
    if (event) event.preventDefault();
    // A retry cancels the request still waiting for the key (browsers allow one at a time).
    if (pending) pending.abort();
    var controller = typeof AbortController === "function" ? new AbortController() : null;
    pending = controller;
    var options = JSON.parse(document.getElementById("key-options").textContent);
    options.challenge = fromB64(options.challenge);
    options.allowCredentials = (options.allowCredentials || []).map(function (c) {
      return { id: fromB64(c.id), type: c.type, transports: c.transports };
    });
    status.textContent = "Waiting for your security key\\u2026";
    var request = { publicKey: options };
    if (controller) request.signal = controller.signal;
    navigator.credentials.get(request).then(function (credential) {
      if (pending !== controller) return;
      pending = null;
      var r = credential.response;
      document.getElementById("assertion").value = JSON.stringify({
        id: credential.id,
        rawId: toB64(credential.rawId),
        type: credential.type,
        response: {
          clientDataJSON: toB64(r.clientDataJSON),
          authenticatorData: toB64(r.authenticatorData),
          signature: toB64(r.signature),
          userHandle: r.userHandle ? toB64(r.userHandle) : undefined
        },
        clientExtensionResults: credential.getClientExtensionResults()
      });
      form.removeEventListener("submit", run);
      status.textContent = "Signing in\\u2026";
      form.submit();
    }, function (error) {
      if (pending !== controller) return;
      pending = null;
      status.textContent = message(error);
    });
  }
  form.addEventListener("submit", run);
  run();
})();
`;
