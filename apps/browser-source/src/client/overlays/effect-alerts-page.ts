import { alertSetEffect, resolveAlert } from "@ovation/core/alerts";
import type { QueueControl } from "@ovation/core/contracts";
import { effectAlertsSourceSettingsSchema, overlayEffectSchema } from "@ovation/core/overlays";
import type { EffectAlertsSourceSettings, OverlayEffect } from "@ovation/core/overlays";
import type { BrowserSourceBootstrap } from "../../bootstrap.js";
import { AlertQueue } from "../alert-queue.js";
import type { BrowserSourceConfig } from "../config.js";
import { readOverlaySettings } from "../overlay-switches.js";
import type { PageStatus } from "../page-state.js";
import { planAlert, readNotification, storedInputOf } from "../resolve.js";
import type { AlertNotification, StoredAlertResolver } from "../resolve.js";
import { readAlertEntry } from "./alert-entry.js";
import { playEffect } from "./effects.js";
import { readSettings, runOverlay } from "./overlay-runner.js";

const resolveStored: StoredAlertResolver = (alertSet, input) => resolveAlert(alertSet as Parameters<typeof resolveAlert>[0], input);

/**
 * The effect an alert gets: the one its alert set chooses (the matching variation's, else the type
 * default's), else the source's entry for the type, else the source's `*` entry, else none.
 */
export function effectFor(settings: EffectAlertsSourceSettings, type: string, fromSet: unknown = null): OverlayEffect | null {
  const set = fromSet === null ? null : overlayEffectSchema.safeParse(fromSet);
  const chosen = set?.success ? set.data : (settings.effects[type] ?? settings.effects["*"]);
  return chosen && chosen.effect !== "none" ? chosen : null;
}

/** The image an emote rain throws: the alert's cheermote for a cheer, none otherwise (drops are drawn). */
function rainImage(doc: Document, notification: AlertNotification, size: number): HTMLImageElement | null {
  if (notification.subscription.type !== "cheer" || notification.subscription.condition.platform !== "twitch") return null;
  const tier = [10000, 5000, 1000, 100, 1].find((t) => size >= t) ?? 1;
  const img = doc.createElement("img");
  img.referrerPolicy = "no-referrer";
  img.src = `https://d3aqoihi2n8ty8.cloudfront.net/actions/cheer/dark/animated/${tier}/2.gif`;
  return img;
}

interface QueuedEffect {
  id: string;
  notification: AlertNotification;
}

/**
 * The `effect-alerts` page: a full-screen canvas over the scene. Every alert goes through the same
 * queue the alerts source runs (one at a time, arrival order, each for the `display_time` the active
 * alert set resolves for it, skip/pause/resume/clear from the dashboard), so the effect of an alert
 * plays while that alert is on screen. An alert the set disables plays no effect; `!effects off`
 * hides the canvas.
 */
export async function runEffectAlertsPage(bootstrap: BrowserSourceBootstrap, stage: HTMLElement, status: PageStatus): Promise<void> {
  const doc = stage.ownerDocument;
  const canvas = doc.createElement("canvas");
  canvas.className = "ovation-effects";
  let config: BrowserSourceConfig | null = null;
  let settings: EffectAlertsSourceSettings | null = null;
  let played = 0;

  const queue = new AlertQueue<QueuedEffect>({
    play: async (item, signal) => {
      const plan = planAlert(item.notification, config?.alert_set ?? null, resolveStored, "");
      if (plan.kind === "disabled" || !settings) return;
      const entry = readAlertEntry({ ...item.notification, notification: { id: item.id } });
      const alertSet = config?.alert_set ?? null;
      const fromSet =
        plan.kind === "standard" && alertSet && item.notification.ovation.template == null
          ? alertSetEffect(alertSet as Parameters<typeof alertSetEffect>[0], storedInputOf(item.notification))
          : null;
      const effect = effectFor(settings, item.notification.subscription.type, fromSet);
      const duration = plan.kind === "standard" ? plan.view.displayMs : 8000;
      const size = entry?.size ?? 1;
      stage.dataset.effect = effect?.effect ?? "none";
      stage.dataset.effectAlert = item.id;
      const pieces = await playEffect(canvas, effect ?? { effect: "none", per_amount: 0, min_pieces: 0, max_pieces: 1 }, size, duration, signal, rainImage(doc, item.notification, size));
      stage.dataset.effectPieces = String(pieces);
      played += 1;
      stage.dataset.effectsPlayed = String(played);
      stage.dataset.effect = "";
    },
    onSettled: () => undefined,
    onChange: (snapshot) => status.queue(snapshot),
  });

  await runOverlay(bootstrap, status, {
    rooms: () => [],
    start: (loaded, socket) => {
      config = loaded;
      settings = readSettings(effectAlertsSourceSettingsSchema, loaded, status);
      stage.replaceChildren(canvas);
      const honour = (value: unknown) => {
        stage.style.visibility = readOverlaySettings(value).effects ? "visible" : "hidden";
      };
      honour(loaded.overlay);
      socket.on("overlay-settings", honour);
      socket.on("notifysub", (payload) => {
        const notification = readNotification(payload);
        if (notification) queue.enqueue({ id: notification.notification.id, notification });
      });
      socket.on("queue-control", (control: QueueControl) => {
        if (control.action === "skip") queue.skip();
        else if (control.action === "pause") queue.pause();
        else if (control.action === "resume") queue.resume();
        else if (control.action === "clear") queue.clear();
      });
    },
    update: (loaded) => {
      config = loaded;
      settings = readSettings(effectAlertsSourceSettingsSchema, loaded, status);
    },
    stop: () => {
      queue.clear();
      stage.replaceChildren();
    },
  });
}
