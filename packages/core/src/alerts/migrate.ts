import { parseOrThrow } from "../validation.js";
import type { Ae3Document, Ae3Settings, Ae3Type, Ae3TypeConfig } from "./ae3.js";
import {
  AE3_DEFAULT_TEXTS,
  AE3_ENGINE_DEFAULTS,
  AE3_PARAMETERS,
  AE3_TIER_PARAMETER,
  AE3_TYPE_MAP,
  AE3_TYPES,
  ae3DocumentSchema,
} from "./ae3.js";
import { getCatalogType } from "./catalog.js";
import { pixelsToRelativeFontSize } from "./font-size.js";
import { ALERT_ERROR_CODES, AlertMigrationError } from "./alert-errors.js";
import type { Condition } from "./conditions.js";
import type { AlertSet, AlertSetInput } from "./schemas.js";
import { alertSetSchema } from "./schemas.js";
import type { TemplateLayer } from "./template-settings.js";

/** How an AE3 placeholder is named in AE4, per type (absent: not a placeholder, kept as text). */
function ae4PlaceholderName(type: Ae3Type, key: string): string | undefined {
  if (!AE3_PARAMETERS[type].includes(key)) return undefined;
  if (type === "charity") {
    if (key === "amount_value") return "amount";
    if (key === "amount_currency") return "currency";
    if (key === "amount_decimal_places") return undefined;
  }
  return key;
}

/** Rewrites AE3 `{key}` placeholders of a type to AE4 `{{key}}`; other braces stay as text. */
export function migrateAe3Text(type: Ae3Type, text: string): string {
  return text.replace(/\{([A-Za-z0-9_]+)\}/g, (match, key: string) => {
    const name = ae4PlaceholderName(type, key);
    return name === undefined ? match : `{{${name}}}`;
  });
}

/** Converts AE3 settings to an AE4 template layer (seconds -> ms, volume 0..1 -> percent, font pixels -> relative size). */
export function migrateAe3Settings(settings: Ae3Settings | undefined): TemplateLayer {
  const layer: TemplateLayer = {};
  if (!settings) return layer;
  if (settings.image !== undefined) layer.image_href = settings.image;
  if (settings.sound !== undefined) layer.sound_href = settings.sound;
  if (settings.duration !== undefined) layer.display_time = Math.round(settings.duration * 1000);
  if (settings.volume !== undefined) layer.volume = Math.round(settings.volume * 100 * 1e6) / 1e6;
  if (settings.font !== undefined) layer.font_family = settings.font;
  if (settings.font_size !== undefined) layer.font_size = pixelsToRelativeFontSize(settings.font_size);
  if (settings.font_weight !== undefined) layer.font_weight = settings.font_weight;
  if (settings.text_color !== undefined) layer.font_color = settings.text_color;
  if (settings.highlight_color !== undefined) layer.font_highlight_color = settings.highlight_color;
  if (settings.text_animation !== undefined) layer.font_animation = settings.text_animation;
  if (settings.enter_animation !== undefined) layer.animation_alert_enter = settings.enter_animation;
  if (settings.leave_animation !== undefined) layer.animation_alert_leave = settings.leave_animation;
  if (settings.layout !== undefined) layer.layout = settings.layout;
  return layer;
}

function textLayer(type: Ae3Type, source: { text?: string; subtext?: string; message?: string }): TemplateLayer {
  const layer: TemplateLayer = {};
  if (source.text !== undefined) layer.title = migrateAe3Text(type, source.text);
  if (source.subtext !== undefined) layer.subtitle = migrateAe3Text(type, source.subtext);
  if (source.message !== undefined) layer.chat_message = migrateAe3Text(type, source.message);
  return layer;
}

function tierVariations(type: Ae3Type, config: Ae3TypeConfig, label: string): AlertSetInput["variations"] {
  if (type === "follow" || !config.tiers?.length) return [];
  const variable = AE3_TIER_PARAMETER[type];
  const ae4Type = AE3_TYPE_MAP[type];
  // AE3 showed the one tier with the highest `min` at or below the value (the later one on a tie);
  // AE4 merges every match, so each tier gets the range up to the next higher min.
  const ordered = config.tiers
    .map((tier, position) => ({ tier, position }))
    .sort((a, b) => a.tier.min - b.tier.min || a.position - b.position);
  const reachable = ordered.filter((entry, i) => ordered[i + 1]?.tier.min !== entry.tier.min);
  return reachable.map(({ tier }, i) => {
    const next = reachable[i + 1]?.tier.min;
    const parts: Condition[] = [
      { "===": [{ var: "type" }, ae4Type] },
      { ">=": [{ var: [variable, 0] }, tier.min] },
    ];
    if (next !== undefined) parts.push({ "<": [{ var: [variable, 0] }, next] });
    return {
      name: `${label}: ${tier.name}`.slice(0, 100),
      conditions: { and: parts },
      overrides: { ...migrateAe3Settings(tier.settings), ...textLayer(type, tier) },
    };
  });
}

/**
 * Migrates an AE3 document to an equivalent AE4 alert set (one-way). Every alert resolves to what
 * AE3 showed: the AE3 engine defaults and global settings become the set's `default` (title and
 * subtitle null), each AE3 type a type default on the document's platform, each enabled type a
 * catch-all variation, and each reachable tier a variation bounded to its range. The deprecated
 * `alert` attribute is honoured as AE3 did (only without `settings`) and not carried over.
 * Throws AlertMigrationError `OVATION_ERR_ALERTS_ALREADY_AE4` for an AE4 config, and a
 * ValidationError `OVATION_ERR_ALERTS_AE3_INVALID` naming every problem of an invalid document.
 */
export function migrateAe3ToAe4(document: unknown): AlertSet {
  if (document !== null && typeof document === "object" && !Array.isArray(document)) {
    const candidate = document as Record<string, unknown>;
    if (candidate["version"] === 4 || (Array.isArray(candidate["defaults"]) && Array.isArray(candidate["variations"]))) {
      throw new AlertMigrationError(
        ALERT_ERROR_CODES.alreadyAe4,
        "This alert set is already an AE4 configuration; migration from AE3 is one-way and cannot run twice.",
        { details: { version: candidate["version"] } },
      );
    }
  }
  const doc: Ae3Document = parseOrThrow(ae3DocumentSchema, document, ALERT_ERROR_CODES.ae3Invalid);
  const global = doc.settings ?? doc.alert;
  const setDefault: TemplateLayer = {
    ...migrateAe3Settings(AE3_ENGINE_DEFAULTS),
    ...migrateAe3Settings(global),
    title: null,
    subtitle: null,
  };
  const defaults: AlertSetInput["defaults"] = [];
  const variations: AlertSetInput["variations"] = [];
  for (const type of AE3_TYPES) {
    const config = doc.types[type];
    if (!config) continue;
    const ae4Type = AE3_TYPE_MAP[type];
    const label = getCatalogType(ae4Type)?.name ?? ae4Type;
    defaults.push({
      platform: doc.platform,
      type: ae4Type,
      name: label,
      enabled: config.enabled,
      default: {
        ...migrateAe3Settings(config.settings),
        ...textLayer(type, { text: AE3_DEFAULT_TEXTS[type], subtext: "", message: "" }),
        ...textLayer(type, config),
      },
    });
    if (!config.enabled) continue;
    variations.push({ name: label, conditions: { "===": [{ var: "type" }, ae4Type] }, overrides: {} });
    variations.push(...tierVariations(type, config, label));
  }
  return parseOrThrow(
    alertSetSchema,
    { id: doc.id, version: 4, user_id: doc.user_id, active: doc.active, default: setDefault, defaults, variations },
    ALERT_ERROR_CODES.migrationFailed,
  );
}

/**
 * The AE4 form of an alert as AE3 received it: the type renamed, and for charity donations the
 * minor-unit `amount_value` / `amount_decimal_places` / `amount_currency` turned into AE4's decimal
 * `amount` and `currency`. Used when replaying AE3-era alert logs against a migrated set.
 */
export function migrateAe3Alert(alert: { type: Ae3Type; data: Readonly<Record<string, unknown>> }): {
  type: string;
  data: Record<string, unknown>;
} {
  const data: Record<string, unknown> = { ...alert.data };
  if (alert.type === "charity") {
    const value = typeof data["amount_value"] === "number" ? data["amount_value"] : 0;
    const places = typeof data["amount_decimal_places"] === "number" ? data["amount_decimal_places"] : 0;
    data["amount"] = value / 10 ** places;
    if (data["amount_currency"] !== undefined) data["currency"] = data["amount_currency"];
    delete data["amount_value"];
    delete data["amount_decimal_places"];
    delete data["amount_currency"];
  }
  return { type: AE3_TYPE_MAP[alert.type], data };
}
