// The test oracle for the AE3 -> AE4 migration: how the AE3 engine showed an alert, read straight
// from the AE3 document format of docs/alerts.md. Written apart from migrate.ts on purpose; it
// shares only the AE3 format's data tables (parameter names, built-in texts and settings).
import type { Ae3Type } from "../ae3.js";
import { AE3_DEFAULT_TEXTS, AE3_ENGINE_DEFAULTS, AE3_PARAMETERS, AE3_TIER_PARAMETER } from "../ae3.js";

/** What AE3 put on screen, in AE3's own units (seconds, volume 0..1). */
export interface Ae3Shown {
  text: string;
  subtext: string;
  message: string;
  settings: Record<string, unknown>;
}

interface RawTier { name: string; min: number; text?: string; subtext?: string; message?: string; settings?: Record<string, unknown> }
interface RawType { enabled: boolean; text?: string; subtext?: string; message?: string; settings?: Record<string, unknown>; tiers?: RawTier[] }
/** An AE3 document as stored (JSON). */
export interface RawAe3 {
  platform?: string;
  settings?: Record<string, unknown>;
  alert?: Record<string, unknown>;
  types: Partial<Record<Ae3Type, RawType>>;
}

function asText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return String(value);
  return "";
}

/** AE3's money amount for charity: minor units scaled by the decimal places. */
function charityAmount(data: Record<string, unknown>): number {
  const value = typeof data["amount_value"] === "number" ? data["amount_value"] : 0;
  const places = typeof data["amount_decimal_places"] === "number" ? data["amount_decimal_places"] : 0;
  return value / 10 ** places;
}

function render(type: Ae3Type, text: string, data: Record<string, unknown>): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf("{", i);
    if (open < 0) break;
    const close = text.indexOf("}", open + 1);
    if (close < 0) break;
    const key = text.slice(open + 1, close);
    const known = /^[A-Za-z0-9_]+$/.test(key) && AE3_PARAMETERS[type].includes(key) && !(type === "charity" && key === "amount_decimal_places");
    if (!known) {
      out += text.slice(i, open + 1);
      i = open + 1;
      continue;
    }
    out += text.slice(i, open) + asText(type === "charity" && key === "amount_value" ? charityAmount(data) : data[key]);
    i = close + 1;
  }
  return out + text.slice(i);
}

/** How AE3 showed `alert` with `doc`, or null when it showed nothing. */
export function ae3Show(doc: RawAe3, alert: { type: Ae3Type; platform: string; data: Record<string, unknown> }): Ae3Shown | null {
  if (alert.platform !== (doc.platform ?? "twitch")) return null;
  const config = doc.types[alert.type];
  if (!config || !config.enabled) return null;
  let tier: RawTier | undefined;
  if (alert.type !== "follow" && config.tiers) {
    const value = alert.type === "charity" ? charityAmount(alert.data) : (alert.data[AE3_TIER_PARAMETER[alert.type]] ?? 0);
    for (const candidate of config.tiers) {
      if (!((value as number) >= candidate.min)) continue;
      if (!tier || candidate.min >= tier.min) tier = candidate;
    }
  }
  return {
    text: render(alert.type, tier?.text ?? config.text ?? AE3_DEFAULT_TEXTS[alert.type], alert.data),
    subtext: render(alert.type, tier?.subtext ?? config.subtext ?? "", alert.data),
    message: render(alert.type, tier?.message ?? config.message ?? "", alert.data),
    settings: { ...AE3_ENGINE_DEFAULTS, ...(doc.settings ?? doc.alert ?? {}), ...config.settings, ...tier?.settings },
  };
}
