import { render } from "preact";
import { DASHBOARD_ROOT_ELEMENT_ID } from "../../bootstrap.js";
import { Session } from "../auth/session.js";
import { readBootstrap } from "../boot.js";
import { createClients } from "../api.js";
import type { EatBridge } from "../api.js";
import { App } from "./app.js";
import { applyTheme, storedTheme } from "../ui/theme.js";

function start(): void {
  const root = document.getElementById(DASHBOARD_ROOT_ELEMENT_ID);
  if (!root) return;
  applyTheme(storedTheme());
  try {
    const boot = readBootstrap(document);
    // Sign-in comes back to the public URL's origin: a tab opened at another name of this host moves there first.
    const publicOrigin = new URL(boot.redirect_uri).origin;
    if (window.location.origin !== publicOrigin) {
      window.location.replace(`${publicOrigin}${window.location.pathname}${window.location.search}`);
      return;
    }
    const session = new Session(boot);
    const eat: EatBridge = { ask: async () => null };
    const { api, identity } = createClients(session, eat);
    root.replaceChildren();
    root.dataset.state = "ready";
    render(<App services={{ boot, session, api, identity }} eat={eat} />, root);
  } catch (error) {
    root.dataset.state = "error";
    const message = document.createElement("p");
    message.className = "boot-message";
    message.setAttribute("role", "alert");
    message.textContent = `The dashboard cannot start: ${error instanceof Error ? error.message : String(error)}`;
    root.replaceChildren(message);
  }
}

start();
