import type { BrowserSourceBootstrap } from "../bootstrap.js";
import { loadConfigUntilReady } from "./alerts-page.js";
import { openSocket, reportConnection } from "./connection.js";
import { readOverlaySettings } from "./overlay-switches.js";
import type { PageStatus } from "./page-state.js";
import { revocationCheck } from "./revocation.js";

const LABELS: Record<BrowserSourceBootstrap["type"], string> = {
  alerts: "Alerts",
  "effect-alerts": "Effect alerts",
  scenes: "Scene",
  goalbars: "Goal bar",
  chat: "Chat",
  events: "Events",
  emotewall: "Emote wall",
};

/**
 * The page of effect alerts and scenes: it loads its configuration, joins the room and shows whether
 * it is connected. An effect-alerts page hides itself while `!effects off` holds.
 */
export async function runStatusPage(bootstrap: BrowserSourceBootstrap, stage: HTMLElement, status: PageStatus): Promise<void> {
  const badge = stage.ownerDocument.createElement("div");
  badge.className = "ovation-status";
  stage.replaceChildren(badge);
  const show = (text: string): void => {
    badge.textContent = `${LABELS[bootstrap.type]}: ${text}`;
  };
  show("loading");
  const config = await loadConfigUntilReady(bootstrap, status);
  if (!config) {
    show("this browser source address is no longer valid");
    return;
  }
  const honour = (value: unknown) => {
    if (bootstrap.type === "effect-alerts") stage.style.visibility = readOverlaySettings(value).effects ? "visible" : "hidden";
  };
  honour(config.overlay);
  const socket = openSocket(bootstrap, () => config.room);
  socket.on("overlay-settings", honour);
  const checkToken = revocationCheck(bootstrap, () => {
    socket.close();
    status.state("error");
    show("this browser source address is no longer valid");
  });
  reportConnection(socket, status, checkToken, show);
}
