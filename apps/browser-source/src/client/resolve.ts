import { ENGINE_DEFAULT_TEMPLATE } from "@ovation/core/alerts";
import { NON_ALERT_TYPES, normalizePlatform } from "@ovation/core/contracts";
import { toAlertView } from "./alert-view.js";
import type { AlertView } from "./alert-view.js";
import { customAlertDocument, isCustomTemplate, toCustomTemplate } from "./custom-template.js";

/** The input of the AE4 engine's resolver for a stored template. */
export interface StoredAlertInput {
  type: string;
  platform: string;
  data: Record<string, unknown>;
  random: number;
}

/**
 * Resolves a stored template (variant 1) against an alert set: the merged template, or
 * `{disabled: true, reason}` when the type is disabled. The page uses `resolveAlert` of @ovation/core.
 */
export type StoredAlertResolver = (alertSet: Record<string, unknown>, input: StoredAlertInput) => unknown;

/** What to do with one notification. */
export type AlertPlan =
  | { kind: "standard"; view: AlertView }
  | { kind: "custom"; document: string; displayMs: number; sound: string | null; volume: number }
  | { kind: "disabled"; reason: string };

/** The part of a NotifySub notification the page reads. */
export interface AlertNotification {
  /** `condition.platform` canonicalised (`own3d` -> `ovation`), as alert sets name it. */
  subscription: { type: string; condition: { platform: string } };
  notification: { id: string };
  /** The payload keys (`event`); an empty list payload reads as `{}`. */
  event: Record<string, unknown>;
  /** Ovation's additions beside `event`: `random`, `template`, `test`, `replay`. */
  ovation: Record<string, unknown>;
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Checks a `notifysub` payload; returns null for one the page cannot use. */
export function readNotification(payload: unknown): AlertNotification | null {
  const root = record(payload);
  const subscription = record(root.subscription);
  const condition = record(subscription.condition);
  const notification = record(root.notification);
  const event = root.event;
  if (typeof notification.id !== "string" || notification.id === "" || notification.id.length > 128) return null;
  if (typeof subscription.type !== "string" || subscription.type === "") return null;
  if (event === null || typeof event !== "object" || (Array.isArray(event) && event.length > 0)) return null;
  return {
    subscription: {
      type: subscription.type,
      condition: { platform: typeof condition.platform === "string" ? normalizePlatform(condition.platform) : "ovation" },
    },
    notification: { id: notification.id },
    event: record(event),
    ovation: record(root.ovation),
  };
}

function randomOf(extras: Record<string, unknown>): number {
  const value = extras.random;
  return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 100 ? value : 1;
}

/** The engine's answer as a template, or the reason it is disabled. */
function storedTemplate(
  resolver: StoredAlertResolver,
  alertSet: Record<string, unknown> | null,
  input: StoredAlertInput,
): { template: Record<string, unknown> } | { reason: string } {
  if (!alertSet) return { reason: "this browser source has no alert set" };
  let result: unknown;
  try {
    result = resolver(alertSet, input);
  } catch (error) {
    return { reason: `the alert set could not be resolved: ${error instanceof Error ? error.message : String(error)}` };
  }
  const answer = record(result);
  if (answer.disabled === true) return { reason: typeof answer.reason === "string" ? answer.reason : "disabled" };
  const template = record(answer.template);
  return { template: Object.keys(template).length > 0 ? template : answer };
}

/**
 * The user's settings for a variant 3 alert with `user_defaults`: the stored template of the alert's
 * type when the set has one, else the set's `default` layer over the engine defaults (inline alerts
 * arrive with the type `custom`, which no set has).
 */
function userDefaults(resolver: StoredAlertResolver, alertSet: Record<string, unknown> | null, input: StoredAlertInput): Record<string, unknown> {
  const stored = storedTemplate(resolver, alertSet, input);
  if ("template" in stored) return stored.template;
  const merged: Record<string, unknown> = { ...ENGINE_DEFAULT_TEMPLATE };
  for (const [key, value] of Object.entries(record(alertSet?.default))) if (value !== null && value !== undefined) merged[key] = value;
  return merged;
}

/** What an alert set resolves a notification from: its type, platform, data and the server's random draw. */
export function storedInputOf(notification: AlertNotification): StoredAlertInput {
  return {
    type: notification.subscription.type,
    platform: notification.subscription.condition.platform,
    data: notification.event,
    random: randomOf(notification.ovation),
  };
}

/**
 * Decides how to show a notification: variant 1 (`ovation.template` null) through the alert set,
 * variant 2 (an inline template) as the template itself, variant 3 (inline html/css/js) as a
 * sandboxed document. Stream state events and alerts the set disables are `disabled`.
 */
export function planAlert(
  notification: AlertNotification,
  alertSet: Record<string, unknown> | null,
  resolver: StoredAlertResolver,
  nonce: string,
): AlertPlan {
  const data = notification.event;
  const input = storedInputOf(notification);
  const inline = notification.ovation.template;
  if (isCustomTemplate(inline)) {
    const custom = toCustomTemplate(inline);
    const base = toAlertView(custom.user_defaults ? userDefaults(resolver, alertSet, input) : ENGINE_DEFAULT_TEMPLATE, data);
    return { kind: "custom", document: customAlertDocument(custom, data, nonce), displayMs: base.displayMs, sound: base.sound, volume: base.volume };
  }
  if (inline !== null && inline !== undefined) {
    if (typeof inline !== "object" || Array.isArray(inline)) return { kind: "disabled", reason: "ovation.template is neither null nor a template object" };
    return { kind: "standard", view: toAlertView(inline as Record<string, unknown>, data) };
  }
  if (NON_ALERT_TYPES.includes(notification.subscription.type)) {
    return { kind: "disabled", reason: `${notification.subscription.type} is not an alert` };
  }
  const stored = storedTemplate(resolver, alertSet, input);
  if ("reason" in stored) return { kind: "disabled", reason: stored.reason };
  return { kind: "standard", view: toAlertView(stored.template, data) };
}
