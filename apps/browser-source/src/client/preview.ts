import { resolveAlert } from "@ovation/core/alerts";
import { buildAlertElement, playStandardAlert } from "./alert-renderer.js";
import { loadImage } from "./media.js";
import { planAlert } from "./resolve.js";
import type { AlertPlan, StoredAlertResolver } from "./resolve.js";

/**
 * The page's renderer for other apps (the dashboard's live preview): the same resolve, plan and DOM
 * code as the browser-source page, so a preview looks exactly like the alert in OBS.
 */

/** One alert to preview against a stored alert set (variant 1). */
export interface PreviewAlert {
  type: string;
  /** Canonical platform name (`ovation`, `twitch`...). */
  platform: string;
  data: Record<string, unknown>;
  /** The random draw 1..100 the variations' `random` conditions read. */
  random: number;
}

const resolveStored: StoredAlertResolver = (alertSet, input) => resolveAlert(alertSet as Parameters<typeof resolveAlert>[0], input);

/** What the page would do with this alert under `alertSet`: a standard view, or disabled with the reason. */
export function planPreview(alertSet: Record<string, unknown>, alert: PreviewAlert): AlertPlan {
  return planAlert(
    {
      subscription: { type: alert.type, condition: { platform: alert.platform } },
      notification: { id: "preview" },
      event: alert.data,
      ovation: { random: alert.random },
    },
    alertSet,
    resolveStored,
    "",
  );
}

/**
 * Shows a planned alert on `stage` (an element of the preview's document): `animate` plays it as the
 * page does (enter, display time, leave, with its sound when `sound`); otherwise it stays on screen,
 * without sound, until the next call. Resolves when shown (static) or finished (animated).
 */
export async function showPreview(stage: HTMLElement, plan: AlertPlan, signal: AbortSignal, options: { animate: boolean; sound: boolean }): Promise<void> {
  if (plan.kind !== "standard") {
    stage.replaceChildren();
    return;
  }
  const view = options.sound ? plan.view : { ...plan.view, sound: null };
  if (options.animate) {
    await playStandardAlert(stage, "preview", view, signal);
    return;
  }
  const image = view.image && view.layout !== "text-only" ? await loadImage(view.image, signal) : null;
  if (signal.aborted) return;
  const element = buildAlertElement(stage.ownerDocument, "preview", view, image);
  element.dataset.phase = "showing";
  stage.replaceChildren(element);
}

export type { AlertPlan } from "./resolve.js";
export type { AlertView } from "./alert-view.js";
export { ALERT_LAYOUTS, ENTER_ANIMATIONS, LEAVE_ANIMATIONS, FONT_ANIMATIONS, BUNDLED_FONTS, kebabName } from "./alert-view.js";
