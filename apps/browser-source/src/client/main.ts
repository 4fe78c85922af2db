import { ROOT_ELEMENT_ID } from "../bootstrap.js";
import { runAlertsPage } from "./alerts-page.js";
import { readBootstrap, readNonce } from "./bootstrap-reader.js";
import { runGoalBarPage } from "./goal-bar-page.js";
import { runChatPage } from "./overlays/chat-page.js";
import { runEffectAlertsPage } from "./overlays/effect-alerts-page.js";
import { runEmotewallPage } from "./overlays/emotewall-page.js";
import { runEventsPage } from "./overlays/events-page.js";
import { runScenesPage } from "./overlays/scenes-page.js";
import { PageStatus } from "./page-state.js";
import { runPollPage } from "./modules/poll-page.js";
import { runQueuePage } from "./modules/queue-page.js";

function start(): void {
  const root = document.getElementById(ROOT_ELEMENT_ID);
  if (!root) return;
  const status = new PageStatus(root);
  try {
    const bootstrap = readBootstrap(document);
    const pages: Record<typeof bootstrap.type, () => Promise<void>> = {
      alerts: () => runAlertsPage(bootstrap, root, status, readNonce(document)),
      goalbars: () => runGoalBarPage(bootstrap, root, status),
      chat: () => runChatPage(bootstrap, root, status),
      events: () => runEventsPage(bootstrap, root, status),
      emotewall: () => runEmotewallPage(bootstrap, root, status),
      "effect-alerts": () => runEffectAlertsPage(bootstrap, root, status),
      scenes: () => runScenesPage(bootstrap, root, status),
      queue: () => runQueuePage(bootstrap, root, status),
      poll: () => runPollPage(bootstrap, root, status),
    };
    const run = pages[bootstrap.type]();
    run.catch((error: unknown) => {
      status.state("error");
      status.error(error instanceof Error ? error.message : String(error));
    });
  } catch (error) {
    status.state("error");
    status.error(error instanceof Error ? error.message : String(error));
  }
}

start();
