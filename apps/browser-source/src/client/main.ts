import { ROOT_ELEMENT_ID } from "../bootstrap.js";
import { runAlertsPage } from "./alerts-page.js";
import { readBootstrap, readNonce } from "./bootstrap-reader.js";
import { runGoalBarPage } from "./goal-bar-page.js";
import { runChatPage } from "./overlays/chat-page.js";
import { PageStatus } from "./page-state.js";
import { runStatusPage } from "./status-page.js";

function start(): void {
  const root = document.getElementById(ROOT_ELEMENT_ID);
  if (!root) return;
  const status = new PageStatus(root);
  try {
    const bootstrap = readBootstrap(document);
    const pages: Partial<Record<typeof bootstrap.type, () => Promise<void>>> = {
      alerts: () => runAlertsPage(bootstrap, root, status, readNonce(document)),
      goalbars: () => runGoalBarPage(bootstrap, root, status),
      chat: () => runChatPage(bootstrap, root, status),
    };
    const run = (pages[bootstrap.type] ?? (() => runStatusPage(bootstrap, root, status)))();
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
