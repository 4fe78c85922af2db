import { normalizePlatform } from "../platforms.js";
import { parseOrThrow } from "../validation.js";
import type { CompiledCondition, CompiledConditionMask, ConditionContext } from "./conditions.js";
import { MASK_WIDTH, compileCondition, compileConditionMask, conditionVariables, forcedValues } from "./conditions.js";
import { ALERT_ERROR_CODES } from "./alert-errors.js";
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

/** Up to MASK_WIDTH candidate variations evaluated by one compiled call. */
interface MaskChunk {
  readonly mask: CompiledConditionMask;
  /** Variation index of each bit, in config order. */
  readonly indexes: readonly number[];
}

interface PairPlan {
  readonly typeDefault: TypeDefault;
  readonly typeIndex: number;
  readonly base: Readonly<AlertTemplate>;
  readonly chunks: readonly MaskChunk[];
  /** Data keys the candidate conditions read; undefined: copy all of the data. */
  readonly variables: readonly string[] | undefined;
  readonly memo: Map<number | string, AlertResolution>;
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

const ENGINE_VARIABLES: ReadonlySet<string> = new Set(["type", "platform", "enabled", "random"]);

/**
 * The variables conditions see: the alert's data, plus type, platform, enabled and random, which win
 * over data keys of the same name. With `variables`, only those data keys are copied (what a
 * compiled set does: it knows which keys its conditions read). The object starts from a literal and
 * gains keys in a fixed order, which keeps the compiled conditions' property reads fast (an object
 * made by spreading the data is many times slower to read here). A data key `__proto__` is left out.
 */
export function buildConditionContext(
  alert: AlertInput,
  options: { platform?: string; enabled?: boolean; variables?: readonly string[] } = {},
): ConditionContext {
  return contextOf(alert, options.platform ?? alert.platform, options.enabled ?? true, options.variables);
}

function contextOf(alert: AlertInput, platform: string, enabled: boolean, variables: readonly string[] | undefined): ConditionContext {
  const context: ConditionContext = { type: alert.type, platform, enabled, random: alert.random ?? drawRandom() };
  const data = alert.data;
  if (!data) return context;
  if (variables) {
    for (let i = 0; i < variables.length; i++) {
      const key = variables[i] as string;
      if (Object.prototype.hasOwnProperty.call(data, key)) context[key] = data[key];
    }
    return context;
  }
  for (const key of Object.keys(data)) {
    if (!ENGINE_VARIABLES.has(key) && key !== "__proto__") context[key] = data[key];
  }
  return context;
}

/**
 * Validates an alert set and compiles it: every condition is built once with json-logic-engine, and
 * for each type+platform the first three layers are merged ahead of time and the variations that
 * cannot match (their condition pins another type or platform) are left out. Throws a
 * ValidationError (`OVATION_ERR_ALERTS_INVALID_CONFIG`) naming every problem of an invalid set.
 */
export function compileAlertSet(input: AlertSetInput | AlertSet): CompiledAlertSet {
  const config = parseOrThrow(alertSetSchema, input, ALERT_ERROR_CODES.invalidConfig);
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
  const plans = new Map<string, Map<string, PairPlan>>();
  config.defaults.forEach((typeDefault, typeIndex) => {
    const base = Object.freeze({ ...ENGINE_DEFAULT_TEMPLATE, ...setLayer, ...present(typeDefault.default) });
    const candidates = variations.filter((v) => {
      const f = forced[v.index];
      return (!f?.type || f.type.has(typeDefault.type)) && (!f?.platform || f.platform.has(typeDefault.platform));
    });
    const chunks: MaskChunk[] = [];
    for (let start = 0; start < candidates.length; start += MASK_WIDTH) {
      const slice = candidates.slice(start, start + MASK_WIDTH);
      chunks.push({
        mask: compileConditionMask(slice.map((v) => config.variations[v.index]?.conditions ?? {})),
        indexes: slice.map((v) => v.index),
      });
    }
    const read = conditionVariables(candidates.map((v) => config.variations[v.index]?.conditions));
    const variables = read && [...read].filter((name) => !ENGINE_VARIABLES.has(name) && name !== "__proto__").sort();
    let byPlatform = plans.get(typeDefault.type);
    if (!byPlatform) plans.set(typeDefault.type, (byPlatform = new Map()));
    byPlatform.set(typeDefault.platform, { typeDefault, typeIndex, base, chunks, variables, memo: new Map() });
  });

  const planFor = (alert: AlertInput): { plan: PairPlan | undefined; platform: string } => {
    const byPlatform = plans.get(alert.type);
    const plan = byPlatform?.get(alert.platform);
    if (plan) return { plan, platform: alert.platform };
    const platform = normalizePlatform(alert.platform);
    return { plan: byPlatform?.get(platform), platform };
  };

  const disabled = (reason: DisabledReason): AlertResolution => ({ disabled: true, reason });
  const NO_TYPE_DEFAULT = Object.freeze(disabled("no_type_default"));
  const TYPE_DISABLED = Object.freeze(disabled("type_default_disabled"));
  const NO_MATCH = Object.freeze(disabled("no_matching_variation"));

  const resolve = (alert: AlertInput): AlertResolution => {
    let platform = alert.platform;
    const byPlatform = plans.get(alert.type);
    let plan = byPlatform?.get(platform);
    if (!plan && byPlatform) {
      platform = normalizePlatform(platform);
      plan = byPlatform.get(platform);
    }
    if (!plan) return NO_TYPE_DEFAULT;
    if (!plan.typeDefault.enabled) return TYPE_DISABLED;
    const context = contextOf(alert, platform, true, plan.variables);
    const chunks = plan.chunks;
    let key: number | string;
    if (chunks.length === 1) {
      key = (chunks[0] as MaskChunk).mask(context);
      if (key === 0) return NO_MATCH;
    } else {
      const masks = chunks.map((chunk) => chunk.mask(context));
      if (masks.every((m) => m === 0)) return NO_MATCH;
      key = masks.join(",");
    }
    const cached = plan.memo.get(key);
    if (cached) return cached;
    const masks = typeof key === "number" ? [key] : key.split(",").map(Number);
    const indexes = chunks.flatMap((chunk, c) =>
      chunk.indexes.filter((_, bit) => Math.floor((masks[c] as number) / 2 ** bit) % 2 === 1),
    );
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
    const context = contextOf({ ...alert, random }, platform, enabled, undefined);
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

/** An effect as an alert set stores it (see alertEffectSchema); the page fills in what is left out. */
export type AlertSetEffect = Readonly<Record<string, unknown>> & { readonly effect: string };

/**
 * The effect the alert set chooses for an alert (docs/overlays.md): the last matching variation that
 * sets `effect`, else the type default's; null when the set leaves it to the browser source (no
 * layer sets one, or the alert is disabled).
 */
export function alertSetEffect(config: AlertSetInput | AlertSet, alert: AlertInput): AlertSetEffect | null {
  const resolution = resolveAlert(config, alert);
  if (resolution.disabled) return null;
  const chosen = (value: unknown): AlertSetEffect | null =>
    typeof value === "object" && value !== null && typeof (value as { effect?: unknown }).effect === "string" ? (value as AlertSetEffect) : null;
  for (let i = resolution.variations.length - 1; i >= 0; i -= 1) {
    const effect = chosen(config.variations[resolution.variations[i] as number]?.effect);
    if (effect) return effect;
  }
  const platforms = [alert.platform, normalizePlatform(alert.platform)];
  const typeDefault = config.defaults.find((entry) => entry.type === alert.type && platforms.includes(entry.platform));
  return chosen(typeDefault?.effect);
}
