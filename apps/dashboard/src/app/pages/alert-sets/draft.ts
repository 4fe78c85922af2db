import { alertSetSchema } from "@ovation/core/alerts";
import type { AlertSetInput, TemplateLayer } from "@ovation/core/alerts";
import type { FieldErrors } from "../../ui/errors.js";

/** The editable part of an AE4 set (what PUT takes besides `name`). */
export interface AlertSetDraft {
  name: string;
  default: TemplateLayer;
  /** `effect` (the effect-alerts source's effect, docs/overlays.md) is kept as stored when present. */
  defaults: { platform: string; type: string; name: string; enabled: boolean; default: TemplateLayer; effect?: unknown }[];
  variations: { name: string; conditions: unknown; overrides: TemplateLayer; effect?: unknown }[];
}

/** `{effect}` when the stored entry has one, so a save never drops it. */
function effectOf(r: Record<string, unknown>): { effect?: unknown } {
  return r.effect === undefined ? {} : { effect: r.effect };
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The draft of an alert set as the API returned it. */
export function draftOf(set: Record<string, unknown>): AlertSetDraft {
  return {
    name: typeof set.name === "string" ? set.name : "",
    default: record(set.default) as TemplateLayer,
    defaults: (Array.isArray(set.defaults) ? set.defaults : []).map((d) => {
      const r = record(d);
      return { platform: String(r.platform ?? ""), type: String(r.type ?? ""), name: String(r.name ?? ""), enabled: r.enabled !== false, default: record(r.default) as TemplateLayer, ...effectOf(r) };
    }),
    variations: (Array.isArray(set.variations) ? set.variations : []).map((v) => {
      const r = record(v);
      return { name: String(r.name ?? ""), conditions: r.conditions ?? {}, overrides: record(r.overrides) as TemplateLayer, ...effectOf(r) };
    }),
  };
}

/** The body of `PUT /v1/alert-configs/{id}` for a draft. */
export function bodyOf(draft: AlertSetDraft): Record<string, unknown> {
  return { name: draft.name, version: 4, default: draft.default, defaults: draft.defaults, variations: draft.variations };
}

/** The draft as the engine's input (for preview and explain), with the ids the schema wants. */
export function engineSetOf(draft: AlertSetDraft): AlertSetInput {
  return { id: 1, user_id: 1, version: 4, active: true, default: draft.default, defaults: draft.defaults, variations: draft.variations } as AlertSetInput;
}

/** Checks a draft with the engine's own schema (the server runs the same); the errors keyed like the server's 422. */
export function validateDraft(draft: AlertSetDraft): FieldErrors {
  const parsed = alertSetSchema.safeParse(engineSetOf(draft));
  if (parsed.success) return draft.name.trim() === "" ? { name: ["The name field is required."] } : {};
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.map(String).join(".") || "(root)";
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
}

/** A layer without its unset (null/undefined) fields, for display. */
export function setFields(layer: TemplateLayer): string[] {
  return Object.entries(layer)
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k]) => k);
}
