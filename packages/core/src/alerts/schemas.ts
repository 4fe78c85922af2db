import * as z from "zod";
import { overlayEffectSchema } from "../overlays/effects.js";
import { platformSchema } from "../platforms.js";
import { ALERT_TYPES } from "./catalog-data.js";
import { conditionSchema } from "./conditions.js";
import { ALERT_LIMITS } from "./limits.js";
import { templateLayerSchema } from "./template-settings.js";

let labelSchema: z.ZodString | undefined;
/** A type default's or variation's name, built on first use (one instance). */
const label = (): z.ZodString => (labelSchema ??= z.string().check(z.minLength(1), z.maxLength(ALERT_LIMITS.labelLength)));

/**
 * The full-screen effect the `effect-alerts` browser source plays for the alerts of a type default or
 * a variation (docs/overlays.md). An Ovation extension beside the template layer, not a template
 * field: optional, and absent or `null` leaves the choice to the earlier layer and at last to the
 * source's own option. `{ effect: "none" }` is a choice too: no effect.
 */
export const alertEffectSchema = overlayEffectSchema.nullable().optional();

/** An alert type name of the catalog. */
export const alertTypeSchema = z.enum(ALERT_TYPES, {
  error: () => `must be an alert type of the catalog: ${ALERT_TYPES.join(", ")}`,
});

// The fields of the object schemas below that build a schema of their own are getters: zod builds
// them on the schema's first parse (or first read of `.shape`), once, not when this module is
// imported (see "Import cost" in the package README).

/**
 * A type default: the settings of one alert type on one platform (layer 3 of the merge). An alert
 * whose type+platform has no entry, or whose entry is not `enabled`, is not shown.
 */
export const typeDefaultSchema = z.strictObject({
  platform: platformSchema,
  type: alertTypeSchema,
  get name() {
    return label();
  },
  get enabled() {
    return z.boolean();
  },
  get default() {
    return templateLayerSchema.default({});
  },
  effect: alertEffectSchema,
});

/**
 * A variation: when its JsonLogic `conditions` hold for an alert, its `overrides` are merged over
 * the type default (layer 4). `{}` as conditions matches every alert.
 */
export const variationSchema = z.strictObject({
  get name() {
    return label();
  },
  conditions: conditionSchema,
  get overrides() {
    return templateLayerSchema.default({});
  },
  effect: alertEffectSchema,
});

/**
 * An AE4 alert set configuration. `default` (the set's global settings) may be omitted or null;
 * `defaults` and `variations` are required. Each type default is keyed by type+platform, so a pair
 * may appear once. Unknown top-level attributes (such as the deprecated `alert`) are dropped.
 */
export const alertSetSchema = z
  .object({
    get id() {
      return z.number().int().positive();
    },
    get version() {
      return z.literal(4, { error: "must be 4 (AE4); an AE3 config is migrated with POST /v1/alert-configs/{id}/migrate" });
    },
    get user_id() {
      return z.number().int().positive();
    },
    get active() {
      return z.boolean();
    },
    get default() {
      return templateLayerSchema.nullable().optional();
    },
    get defaults() {
      return z.array(typeDefaultSchema).max(ALERT_LIMITS.typeDefaults);
    },
    get variations() {
      return z.array(variationSchema).max(ALERT_LIMITS.variations);
    },
  })
  .superRefine((set, ctx) => {
    const seen = new Map<string, number>();
    set.defaults.forEach((entry, index) => {
      const key = `${entry.type}\u0000${entry.platform}`;
      const first = seen.get(key);
      if (first === undefined) seen.set(key, index);
      else
        ctx.addIssue({
          code: "custom",
          path: ["defaults", index, "type"],
          message: `duplicates defaults.${first}: ${entry.type} on ${entry.platform} may have one type default`,
          params: { rule: "distinct" },
        });
    });
  });

/** An AE4 alert set configuration, as validated (platforms canonical, optional layers filled in). */
export type AlertSet = z.output<typeof alertSetSchema>;
/** An AE4 alert set configuration as accepted on input (`own3d` allowed, layers optional). */
export type AlertSetInput = z.input<typeof alertSetSchema>;
/** A validated type default. */
export type TypeDefault = z.output<typeof typeDefaultSchema>;
/** A validated variation. */
export type Variation = z.output<typeof variationSchema>;
