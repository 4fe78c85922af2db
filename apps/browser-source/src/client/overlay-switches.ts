import type { OverlaySettings } from "@ovation/core/contracts";
import type { AlertPlan } from "./resolve.js";

/** Every switch on: what a page assumes until the server says otherwise. */
export const ALL_ON: OverlaySettings = { visuals: true, effects: true, sounds: true };

/** Reads overlay switches from a config or socket payload; missing or malformed fields stay on. */
export function readOverlaySettings(value: unknown): OverlaySettings {
  const record = value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
  const flag = (key: keyof OverlaySettings) => (typeof record[key] === "boolean" ? (record[key] as boolean) : true);
  return { visuals: flag("visuals"), effects: flag("effects"), sounds: flag("sounds") };
}

/**
 * An alert plan as the switches allow it: with visuals off nothing is shown (the alert is dropped
 * and acknowledged, as a disabled alert is); with sounds off it plays without its sound.
 */
export function applyOverlaySettings(plan: AlertPlan, settings: OverlaySettings): AlertPlan {
  if (plan.kind === "disabled") return plan;
  if (!settings.visuals) return { kind: "disabled", reason: "visuals are switched off (!visuals off)" };
  if (settings.sounds) return plan;
  return plan.kind === "custom" ? { ...plan, sound: null } : { kind: "standard", view: { ...plan.view, sound: null } };
}
