import { normalizePlatform } from "../platforms.js";
import { parseOrThrow } from "../validation.js";
import type { CompiledCondition, ConditionContext } from "./conditions.js";
import { compileCondition, forcedValues } from "./conditions.js";
import type { AlertSet, AlertSetInput, TypeDefault } from "./schemas.js";
import { alertSetSchema } from "./schemas.js";
import type { AlertTemplate, TemplateField, TemplateLayer } from "./template-settings.js";
import { ENGINE_DEFAULT_TEMPLATE, TEMPLATE_FIELDS } from "./template-settings.js";

/** An alert to resolve: its type and platform, its data (parameters) and its random number 1..100. */
export interface AlertInput {
  readonly type: string;
  readonly platform: string;
  readonly data?: Readonly<Record<string, unknown>>;
  /** Drawn once per alert by the server so every browser source agrees; drawn here when absent. */
  readonly random?: number;
}

/** Why an alert is not shown. */
export type DisabledReason = "no_type_default" | "type_default_disabled" | "no_matching_variation";

/** The outcome of {@link resolveAlert}: the final template, or disabled with the reason. */
export type AlertResolution =
  | {
      readonly disabled: false;
      /** The merged template; placeholders are not filled (see renderPlaceholderSegments). Frozen. */
      readonly template: Readonly<AlertTemplate>;
      /** Indexes into `variations` of the variations that matched, in config order. */
      readonly variations: readonly number[];
    }
  | { readonly disabled: true; readonly reason: DisabledReason };

/** Where a field value came from in {@link explainAlert}. */
export type FieldSource =
  | { readonly layer: "engine" }
  | { readonly layer: "set" }
  | { readonly layer: "type"; readonly index: number; readonly name: string }
  | { readonly layer: "variation"; readonly index: number; readonly name: string };

/** How one template field got its final value. */
export interface FieldExplanation {
  readonly value: AlertTemplate[TemplateField];
  /** The layer whose value is final. */
  readonly source: FieldSource;
  /** Earlier layers that set the field and were overridden, in merge order. */
  readonly overridden: readonly FieldSource[];
  /** Layers that held `null` for the field, which leaves the earlier value in place. */
  readonly skippedNull: readonly FieldSource[];
}

/** The explain form of a resolve: every layer and variation and what each field owes to whom. */
export interface AlertExplanation {
  readonly disabled: boolean;
  readonly reason: DisabledReason | null;
  readonly random: number;
  readonly typeDefault: { readonly index: number; readonly name: string; readonly enabled: boolean } | null;
  /** Every variation of the set in config order, with whether its conditions held for this alert. */
  readonly variations: readonly { readonly index: number; readonly name: string; readonly matched: boolean }[];
  /** The template as it would be shown, or null when disabled. */
  readonly template: Readonly<AlertTemplate> | null;
  /** Per field: final value and its source, even when disabled (what would have been shown). */
  readonly fields: Readonly<Record<TemplateField, FieldExplanation>>;
}

interface CompiledVariation {
  readonly index: number;
  readonly name: string;
  readonly test: CompiledCondition;
  readonly overrides: Partial<AlertTemplate>;
}

interface PairPlan {
  readonly typeDefault: TypeDefault;
  readonly typeIndex: number;
  readonly base: Readonly<AlertTemplate>;
  readonly candidates: readonly CompiledVariation[];
  readonly memo: Map<string, AlertResolution>;
}

/** A validated alert set with its conditions compiled and its static layers pre-merged. */
export interface CompiledAlertSet {
  readonly config: AlertSet;
  resolve(alert: AlertInput): AlertResolution;
  explain(alert: AlertInput): AlertExplanation;
}

const MEMO_LIMIT = 256;

function present(layer: TemplateLayer | null | undefined): Partial<AlertTemplate> {
  const out: Partial<Record<TemplateField, unknown>> = {};
  if (!layer) return out as Partial<AlertTemplate>;
  for (const field of TEMPLATE_FIELDS) {
    const value = layer[field];
    if (value !== null && value !== undefined) out[field] = value;
  }
  return out as Partial<AlertTemplate>;
}

function drawRandom(): number {
  return Math.floor(Math.random() * 100) + 1;
}

function contextFor(alert: AlertInput, platform: string, enabled: boolean, random: number): ConditionContext {
  // A null-prototype copy: data keys such as "__proto__" stay plain keys, and the engine variables
  // (type, platform, enabled, random) take precedence over data keys of the same name.
  const context: ConditionContext = Object.create(null) as ConditionContext;
  if (alert.data) Object.assign(context, alert.data);
  context["type"] = alert.type;
  context["platform"] = platform;
  context["enabled"] = enabled;
  context["random"] = random;
  return context;
}

const pairKey = (type: string, platform: string): string => `${type}\u0000${platform}`;

/**
 * Validates an alert set and compiles it: every condition is built once with json-logic-engine, and
 * for each type+platform the first three layers are merged ahead of time and the variations that
 * cannot match (their condition pins another type or platform) are left out. Throws a
 * ValidationError (`OVATION_ERR_ALERTS_INVALID_CONFIG`) naming every problem of an invalid set.
 */
export function compileAlertSet(input: AlertSetInput | AlertSet): CompiledAlertSet {
  const config = parseOrThrow(alertSetSchema, input, "OVATION_ERR_ALERTS_INVALID_CONFIG");
  const setLayer = present(config.default);
  const variations: CompiledVariation[] = config.variations.map((variation, index) => ({
    index,
    name: variation.name,
    test: compileCondition(variation.conditions),
    overrides: present(variation.overrides),
  }));
  const forced = config.variations.map((variation) => ({
    type: forcedValues(variation.conditions, "type"),
    platform: forcedValues(variation.conditions, "platform"),
  }));
  const plans = new Map<string, PairPlan>();
  config.defaults.forEach((typeDefault, typeIndex) => {
    const base = Object.freeze({ ...ENGINE_DEFAULT_TEMPLATE, ...setLayer, ...present(typeDefault.default) });
    const candidates = variations.filter((v) => {
      const f = forced[v.index];
      return (!f?.type || f.type.has(typeDefault.type)) && (!f?.platform || f.platform.has(typeDefault.platform));
    });
    plans.set(pairKey(typeDefault.type, typeDefault.platform), { typeDefault, typeIndex, base, candidates, memo: new Map() });
  });

  const planFor = (alert: AlertInput): { plan: PairPlan | undefined; platform: string } => {
    const plan = plans.get(pairKey(alert.type, alert.platform));
    if (plan) return { plan, platform: alert.platform };
    const platform = normalizePlatform(alert.platform);
    return { plan: plans.get(pairKey(alert.type, platform)), platform };
  };

  const disabled = (reason: DisabledReason): AlertResolution => ({ disabled: true, reason });
  const NO_TYPE_DEFAULT = Object.freeze(disabled("no_type_default"));
  const TYPE_DISABLED = Object.freeze(disabled("type_default_disabled"));
  const NO_MATCH = Object.freeze(disabled("no_matching_variation"));

  const resolve = (alert: AlertInput): AlertResolution => {
    const { plan, platform } = planFor(alert);
    if (!plan) return NO_TYPE_DEFAULT;
    if (!plan.typeDefault.enabled) return TYPE_DISABLED;
    const context = contextFor(alert, platform, true, alert.random ?? drawRandom());
    let key = "";
    let count = 0;
    const candidates = plan.candidates;
    for (let i = 0; i < candidates.length; i++) {
      const candidate = candidates[i] as CompiledVariation;
      if (candidate.test(context)) {
        key = count === 0 ? String(candidate.index) : `${key},${candidate.index}`;
        count++;
      }
    }
    if (count === 0) return NO_MATCH;
    const cached = plan.memo.get(key);
    if (cached) return cached;
    const indexes = key.split(",").map(Number);
    const template: Partial<AlertTemplate> = { ...plan.base };
    for (const index of indexes) Object.assign(template, (variations[index] as CompiledVariation).overrides);
    const result: AlertResolution = Object.freeze({
      disabled: false,
      template: Object.freeze(template as AlertTemplate),
      variations: Object.freeze(indexes),
    });
    if (plan.memo.size < MEMO_LIMIT) plan.memo.set(key, result);
    return result;
  };

  const explain = (alert: AlertInput): AlertExplanation => {
    const { plan, platform } = planFor(alert);
    const random = alert.random ?? drawRandom();
    const enabled = plan?.typeDefault.enabled ?? false;
    const context = contextFor(alert, platform, enabled, random);
    const matches = variations.map((v) => ({ index: v.index, name: v.name, matched: v.test(context) }));
    const layers: { source: FieldSource; layer: TemplateLayer | null | undefined }[] = [
      { source: { layer: "set" }, layer: config.default },
    ];
    if (plan) {
      layers.push({
        source: { layer: "type", index: plan.typeIndex, name: plan.typeDefault.name },
        layer: plan.typeDefault.default,
      });
    }
    for (const m of matches) {
      if (m.matched) {
        layers.push({ source: { layer: "variation", index: m.index, name: m.name }, layer: config.variations[m.index]?.overrides });
      }
    }
    const fields = {} as Record<TemplateField, FieldExplanation>;
    const merged = { ...ENGINE_DEFAULT_TEMPLATE } as Record<TemplateField, AlertTemplate[TemplateField]>;
    for (const field of TEMPLATE_FIELDS) {
      let source: FieldSource = { layer: "engine" };
      const overridden: FieldSource[] = [];
      const skippedNull: FieldSource[] = [];
      for (const { source: layerSource, layer } of layers) {
        const value = layer?.[field];
        if (value === undefined) continue;
        if (value === null) {
          skippedNull.push(layerSource);
          continue;
        }
        overridden.push(source);
        source = layerSource;
        merged[field] = value;
      }
      fields[field] = { value: merged[field], source, overridden, skippedNull };
    }
    const reason: DisabledReason | null = !plan
      ? "no_type_default"
      : !plan.typeDefault.enabled
        ? "type_default_disabled"
        : matches.some((m) => m.matched)
          ? null
          : "no_matching_variation";
    return {
      disabled: reason !== null,
      reason,
      random,
      typeDefault: plan ? { index: plan.typeIndex, name: plan.typeDefault.name, enabled: plan.typeDefault.enabled } : null,
      variations: matches,
      template: reason === null ? Object.freeze(merged as AlertTemplate) : null,
      fields,
    };
  };

  return { config, resolve, explain };
}

const compiledSets = new WeakMap<object, CompiledAlertSet>();

function compiledFor(config: AlertSetInput | AlertSet): CompiledAlertSet {
  let compiled = compiledSets.get(config);
  if (!compiled) {
    compiled = compileAlertSet(config);
    compiledSets.set(config, compiled);
  }
  return compiled;
}

/**
 * Resolves an alert against an AE4 alert set: the final template (engine defaults, the set's
 * `default`, the type default for type+platform, then the overrides of every matching variation in
 * config order; `null` leaves the earlier value), or `{ disabled: true, reason }`. The compiled set is
 * cached per config object, so treat a config as immutable once resolved (or use compileAlertSet).
 */
export function resolveAlert(config: AlertSetInput | AlertSet, alert: AlertInput): AlertResolution {
  return compiledFor(config).resolve(alert);
}

/**
 * The explain form of {@link resolveAlert}: which type default and variations matched, and for each
 * template field which layer or variation gave the final value, which were overridden and which held
 * `null`. The template it reports is the one resolveAlert returns.
 */
export function explainAlert(config: AlertSetInput | AlertSet, alert: AlertInput): AlertExplanation {
  return compiledFor(config).explain(alert);
}
