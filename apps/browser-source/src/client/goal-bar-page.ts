import type { BrowserSourceBootstrap } from "../bootstrap.js";
import { loadConfigUntilReady } from "./alerts-page.js";
import { keepConnected, openSocket } from "./connection.js";
import { drawGoalBar, readGoalBar } from "./goal-bar-view.js";
import { readOverlaySettings } from "./overlay-switches.js";
import type { PageStatus } from "./page-state.js";
import { revocationCheck } from "./revocation.js";

/**
 * The `goalbars` page: draws the goal bar of its identifier from the configuration, joins the
 * room and redraws on every `goal-bar-updated` for that goal; `!visuals off` hides it.
 */
export async function runGoalBarPage(bootstrap: BrowserSourceBootstrap, stage: HTMLElement, status: PageStatus): Promise<void> {
  const config = await loadConfigUntilReady(bootstrap, status);
  if (!config) {
    stage.replaceChildren();
    return;
  }
  const first = readGoalBar(config.goal_bar);
  if (!first) {
    status.state("error");
    status.error("this goal bar does not exist (any more): check the browser source's goal bar id");
    return;
  }
  const goalId = first.id;
  drawGoalBar(stage, first);
  const show = (visible: boolean) => {
    stage.style.visibility = visible ? "visible" : "hidden";
  };
  show(readOverlaySettings(config.overlay).visuals);

  const socket = openSocket(bootstrap);
  let stopped = false;
  keepConnected(socket, () => stopped);
  const checkToken = revocationCheck(bootstrap, () => {
    stopped = true;
    socket.disconnect();
    stage.replaceChildren();
    status.state("error");
    status.error("this browser source address is no longer valid");
  });
  socket.on("connect", () => {
    status.state("connecting");
    socket.emit("room", config.room);
  });
  socket.on("joined", () => status.state("connected"));
  socket.on("disconnect", () => status.state("disconnected"));
  socket.on("connect_error", (error) => {
    status.state("disconnected");
    status.error(`socket: ${error.message}`);
    checkToken();
  });
  socket.on("error", (payload) => {
    status.error(`${payload.code}: ${payload.message}`);
    checkToken();
  });
  socket.on("goal-bar-updated", (payload) => {
    const goal = readGoalBar(payload);
    if (goal && goal.id === goalId) drawGoalBar(stage, goal);
  });
  socket.on("overlay-settings", (settings) => show(readOverlaySettings(settings).visuals));
}
