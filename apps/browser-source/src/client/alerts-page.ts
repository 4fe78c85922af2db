import { resolveAlert } from "@ovation/core/alerts";
import type { QueueControl } from "@ovation/core/contracts";
import type { BrowserSourceBootstrap } from "../bootstrap.js";
import { AlertQueue } from "./alert-queue.js";
import type { AlertOutcome } from "./alert-queue.js";
import { playCustomAlert, playStandardAlert } from "./alert-renderer.js";
import { fetchConfig } from "./config.js";
import type { BrowserSourceConfig } from "./config.js";
import { keepConfigFresh, openSocket, reportConnection } from "./connection.js";
import type { PageStatus } from "./page-state.js";
import { applyOverlaySettings, readOverlaySettings } from "./overlay-switches.js";
import { planAlert, readNotification } from "./resolve.js";
import type { AlertNotification, StoredAlertResolver } from "./resolve.js";
import { retryDelayMs } from "./retry.js";
import { SpeechReader, readSpeechOptions } from "./speech.js";
import { isRefusedToken, revocationCheck } from "./revocation.js";

interface QueuedAlert {
  id: string;
  notification: AlertNotification;
}

// resolveAlert validates the set itself (a bad set throws a ValidationError naming the problem), so the
// config's alert_set is handed over as received.
const resolveStored: StoredAlertResolver = (alertSet, input) => resolveAlert(alertSet as Parameters<typeof resolveAlert>[0], input);

/**
 * Runs the alerts page: loads the configuration (retrying with backoff while the service is
 * unreachable; stopping on a revoked token), connects, joins the room, and plays every notification
 * through the queue, acknowledging each once it has been shown or dropped.
 */
export async function runAlertsPage(bootstrap: BrowserSourceBootstrap, stage: HTMLElement, status: PageStatus, nonce: string): Promise<void> {
  let config = await loadConfigUntilReady(bootstrap, status);
  if (!config) return;

  // The socket helper drops (and acknowledges again) a second delivery of an alert acknowledged here.
  const socket = openSocket(bootstrap, () => config?.room ?? null);
  let overlay = readOverlaySettings(config.overlay);
  // Read-aloud (docs/tts.md): the alert's message is read after the alert, before the next one starts.
  const speech = new SpeechReader(bootstrap, stage);

  const queue = new AlertQueue<QueuedAlert>({
    play: async (item, signal) => {
      const plan = applyOverlaySettings(planAlert(item.notification, config?.alert_set ?? null, resolveStored, nonce), overlay);
      if (plan.kind === "disabled") {
        stage.dataset.lastDisabled = `${item.id}: ${plan.reason}`;
        return;
      }
      if (plan.kind === "custom") await playCustomAlert(stage, item.id, plan, signal);
      else await playStandardAlert(stage, item.id, plan.view, signal);
      const options = readSpeechOptions(config?.browser_source.settings);
      await speech.read(item.id, item.notification.subscription.type, options, overlay.sounds, signal);
    },
    onSettled: (item, outcome: AlertOutcome) => {
      if (outcome === "overflow") return; // not acknowledged: the server hands it over again on reconnect
      socket.ack(item.id);
      if (outcome === "shown") status.shown();
    },
    onChange: (snapshot) => status.queue(snapshot),
  });
  status.queue(queue.snapshot());

  const stop = (): void => {
    queue.clear();
    socket.close();
    stage.replaceChildren();
    status.state("error");
    status.error("this browser source address is no longer valid");
  };
  const checkToken = revocationCheck(bootstrap, stop);

  reportConnection(socket, status, checkToken);

  socket.on("notifysub", (payload) => {
    const notification = readNotification(payload);
    if (!notification) {
      status.error("ignored a malformed notifysub payload");
      return;
    }
    queue.enqueue({ id: notification.notification.id, notification });
  });

  socket.on("overlay-settings", (settings) => {
    overlay = readOverlaySettings(settings);
    stage.dataset.overlay = `visuals:${overlay.visuals ? "on" : "off"} sounds:${overlay.sounds ? "on" : "off"}`;
  });

  socket.on("tts-control", () => speech.skip());
  socket.on("tts-speak", (payload) => {
    const id = typeof payload?.notification_id === "string" ? payload.notification_id : "";
    if (id === "" || !config) return;
    // An approved message: its alert has been shown already, read it now (its type was checked when held).
    void speech.readApproved(id, readSpeechOptions(config.browser_source.settings), overlay.sounds);
  });

  socket.on("queue-control", (control: QueueControl) => {
    if (control.action === "skip") queue.skip();
    else if (control.action === "pause") queue.pause();
    else if (control.action === "resume") queue.resume();
    else if (control.action === "clear") queue.clear();
  });

  keepConfigFresh(socket, {
    bootstrap,
    status,
    ownRoom: () => config?.room,
    apply: (fresh) => {
      const roomChanged = fresh.room !== config?.room;
      config = fresh;
      if (roomChanged) socket.rejoin();
    },
    stop,
  });
}

/** Loads the configuration, retrying transient failures; null when the token is refused. */
export async function loadConfigUntilReady(bootstrap: BrowserSourceBootstrap, status: PageStatus): Promise<BrowserSourceConfig | null> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      const config = await fetchConfig(bootstrap);
      status.configLoaded();
      return config;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      status.error(message);
      if (isRefusedToken(error)) {
        status.state("error");
        return null;
      }
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs(attempt)));
    }
  }
}
