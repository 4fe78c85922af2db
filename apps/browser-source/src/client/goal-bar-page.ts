import type { BrowserSourceBootstrap } from "../bootstrap.js";
import { loadConfigUntilReady } from "./alerts-page.js";
import { keepConfigFresh, openSocket, reportConnection } from "./connection.js";
import { drawGoalBar, readGoalBar } from "./goal-bar-view.js";
import { readOverlaySettings } from "./overlay-switches.js";
import type { PageStatus } from "./page-state.js";
import { revocationCheck } from "./revocation.js";

/**
 * The `goalbars` page: draws the goal bar of its identifier from the configuration, joins the
 * room and redraws on every `goal-bar-updated` for that goal and on every join (from the config
 * read again); `!visuals off` hides it. A goal bar
 * that does not exist is reported on the page and drawn as soon as it is created.
 */
export async function runGoalBarPage(bootstrap: BrowserSourceBootstrap, stage: HTMLElement, status: PageStatus): Promise<void> {
  const config = await loadConfigUntilReady(bootstrap, status);
  if (!config) {
    stage.replaceChildren();
    return;
  }
  const first = readGoalBar(config.goal_bar);
  const goalId = first?.id ?? Number(config.browser_source.identifier);
  if (first) drawGoalBar(stage, first);
  else {
    // The goal bar does not exist (yet, or any more): say so, and draw it once it is created.
    const badge = stage.ownerDocument.createElement("div");
    badge.className = "ovation-status";
    badge.textContent = `Goal bar: there is no goal bar ${String(config.browser_source.identifier ?? "")}`;
    stage.replaceChildren(badge);
  }
  const show = (visible: boolean) => {
    stage.style.visibility = visible ? "visible" : "hidden";
  };
  show(readOverlaySettings(config.overlay).visuals);

  const socket = openSocket(bootstrap, () => config.room);
  const stop = (): void => {
    socket.close();
    stage.replaceChildren();
    status.state("error");
    status.error("this browser source address is no longer valid");
  };
  const checkToken = revocationCheck(bootstrap, stop);
  reportConnection(socket, status, checkToken);
  socket.on("goal-bar-updated", (payload) => {
    const goal = readGoalBar(payload);
    if (goal && goal.id === goalId) drawGoalBar(stage, goal);
  });
  socket.on("overlay-settings", (settings) => show(readOverlaySettings(settings).visuals));
  // Progress made between the config's load and the room's join (or while the socket was down) was
  // announced to nobody here: every join of the room reads the goal bar again.
  keepConfigFresh(socket, {
    bootstrap,
    status,
    ownRoom: () => config.room,
    apply: (fresh) => {
      const goal = readGoalBar(fresh.goal_bar);
      if (goal && goal.id === goalId) drawGoalBar(stage, goal);
      show(readOverlaySettings(fresh.overlay).visuals);
    },
    stop,
    onUpdated: false,
  });
}
