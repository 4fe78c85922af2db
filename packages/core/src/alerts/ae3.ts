import * as z from "zod";
import type { AlertType } from "./catalog.js";
import { fontFamilySchema, hexColorSchema, mediaHrefSchema, styleNameSchema } from "./template-settings.js";

/**
 * The AE3 document format (the older, per-type engine). Not public in the reference; this is the
 * format Ovation defines and migrates from, described in docs/alerts.md.
 */

/** AE3 type keys, mapped to the AE4 type each becomes. */
export const AE3_TYPE_MAP = {
  follow: "follow",
  subscribe: "subscribe",
  resubscribe: "re-subscribe",
  giftsub: "gift-subscribe",
  cheer: "cheer",
  raid: "raid",
  charity: "charity-donation",
} as const satisfies Record<string, AlertType>;

/** An AE3 type key. */
export type Ae3Type = keyof typeof AE3_TYPE_MAP;

/** AE3 type keys in document order. */
export const AE3_TYPES = Object.keys(AE3_TYPE_MAP) as Ae3Type[];

/** Parameters of each AE3 type (docs/alerts.md, "AE3 -> AE4 migration"), which are also its `{key}` placeholders. */
export const AE3_PARAMETERS: Readonly<Record<Ae3Type, readonly string[]>> = {
  follow: ["name"],
  subscribe: ["name", "tier", "is_gift"],
  resubscribe: ["name", "tier", "months", "streak", "duration", "message", "emotes"],
  giftsub: ["gifter", "tier", "amount", "cumulative_amount", "is_anonymous"],
  cheer: ["name", "amount", "message", "is_anonymous"],
  raid: ["name", "count"],
  charity: [
    "campaign_id", "name", "charity_name", "charity_description", "charity_website", "charity_logo",
    "amount_value", "amount_currency", "amount_decimal_places",
  ],
};

/**
 * The parameter an AE3 tier threshold compares, per type (follow has no tiers). For `charity` AE3
 * compared the amount in currency units: `amount_value / 10^amount_decimal_places`.
 */
export const AE3_TIER_PARAMETER: Readonly<Record<Exclude<Ae3Type, "follow">, string>> = {
  subscribe: "tier",
  resubscribe: "months",
  giftsub: "amount",
  cheer: "amount",
  raid: "count",
  charity: "amount",
};

/** Text of an AE3 type whose `text` is absent (the AE3 engine's built-in texts). */
export const AE3_DEFAULT_TEXTS: Readonly<Record<Ae3Type, string>> = {
  follow: "{name} just followed!",
  subscribe: "{name} subscribed!",
  resubscribe: "{name} resubscribed for {months} months!",
  giftsub: "{gifter} gifted {amount} subs!",
  cheer: "{name} cheered {amount} bits!",
  raid: "{name} is raiding with {count} viewers!",
  charity: "{name} donated {amount_value} {amount_currency} to {charity_name}!",
};

/** AE3 text bound: leaves room for `{x}` -> `{{x}}` within the AE4 bound of 500. */
export const AE3_TEXT_LENGTH = 300;

// The fields of the object schemas below that build a schema of their own are getters: zod builds
// them on the schema's first parse (or first read of `.shape`), once, not when this module is
// imported (see "Import cost" in the package README).

const ae3Text = (): z.ZodOptional<z.ZodString> =>
  z
    .string()
    .max(AE3_TEXT_LENGTH)
    .refine((text) => !text.includes("{{") && !text.includes("}}"), {
      message: "AE3 texts cannot contain {{ or }}",
      params: { rule: "ae3_braces" },
    })
    .optional();

/** AE3 display settings. Units differ from AE4: duration in seconds, volume 0..1. */
export const ae3SettingsSchema = z.strictObject({
  get image() {
    return mediaHrefSchema.optional();
  },
  get sound() {
    return mediaHrefSchema.optional();
  },
  get duration() {
    return z.number().min(0.5).max(600).optional();
  },
  get volume() {
    return z.number().min(0).max(1).optional();
  },
  get font() {
    return fontFamilySchema.optional();
  },
  get font_size() {
    return z.number().min(4).max(512).optional();
  },
  get font_weight() {
    return z.number().int().min(1).max(1000).optional();
  },
  get text_color() {
    return hexColorSchema.optional();
  },
  get highlight_color() {
    return hexColorSchema.optional();
  },
  get text_animation() {
    return styleNameSchema.optional();
  },
  get enter_animation() {
    return styleNameSchema.optional();
  },
  get leave_animation() {
    return styleNameSchema.optional();
  },
  get layout() {
    return styleNameSchema.optional();
  },
});

/** AE3 settings. */
export type Ae3Settings = z.output<typeof ae3SettingsSchema>;

/** The AE3 engine's built-in settings (what an AE3 alert showed when nothing was set). */
export const AE3_ENGINE_DEFAULTS: Readonly<Required<Ae3Settings>> = Object.freeze({
  image: "",
  sound: "",
  duration: 5,
  volume: 0.8,
  font: "Roboto",
  font_size: 32,
  font_weight: 600,
  text_color: "#ffffff",
  highlight_color: "#ff4500",
  text_animation: "wave",
  enter_animation: "bounceIn",
  leave_animation: "bounceOut",
  layout: "image-above",
});

/** An AE3 tier: shown instead of the plain type when the tier parameter is at least `min`. */
export const ae3TierSchema = z.strictObject({
  get name() {
    return z.string().min(1).max(80);
  },
  get min() {
    return z.number().min(-1e9).max(1e9);
  },
  get text() {
    return ae3Text();
  },
  get subtext() {
    return ae3Text();
  },
  get message() {
    return ae3Text();
  },
  get settings() {
    return ae3SettingsSchema.optional();
  },
});

/** One AE3 type's configuration, built on the first read of `ae3DocumentSchema`'s `types` (one instance). */
function buildAe3TypeSchema() {
  return z.strictObject({
    get enabled() {
      return z.boolean();
    },
    get text() {
      return ae3Text();
    },
    get subtext() {
      return ae3Text();
    },
    get message() {
      return ae3Text();
    },
    get settings() {
      return ae3SettingsSchema.optional();
    },
    get tiers() {
      return z.array(ae3TierSchema).max(20).optional();
    },
  });
}
let ae3TypeSchemaMemo: ReturnType<typeof buildAe3TypeSchema> | undefined;
const ae3TypeSchema = (): ReturnType<typeof buildAe3TypeSchema> => (ae3TypeSchemaMemo ??= buildAe3TypeSchema());

/** One AE3 type's configuration. */
export type Ae3TypeConfig = z.output<ReturnType<typeof buildAe3TypeSchema>>;

/**
 * An AE3 alert set document. `alert` is the deprecated AE2-era copy of the global settings: AE3 read
 * it only when `settings` is absent. The whole set belongs to one platform connection.
 */
export const ae3DocumentSchema = z
  .object({
    get version() {
      return z.literal(3, { error: "must be 3 (an AE3 document)" });
    },
    get id() {
      return z.number().int().positive();
    },
    get user_id() {
      return z.number().int().positive();
    },
    get active() {
      return z.boolean();
    },
    get platform() {
      return z.enum(["twitch", "youtube", "kick", "tiktok"]).default("twitch");
    },
    get settings() {
      return ae3SettingsSchema.optional();
    },
    get alert() {
      return ae3SettingsSchema.optional();
    },
    get types() {
      const type = ae3TypeSchema().optional();
      return z.strictObject(Object.fromEntries(AE3_TYPES.map((name) => [name, type])) as Record<Ae3Type, typeof type>);
    },
  })
  .superRefine((doc, ctx) => {
    if (doc.types.follow?.tiers?.length) {
      ctx.addIssue({ code: "custom", path: ["types", "follow", "tiers"], message: "follow alerts have no tiers in AE3", params: { rule: "ae3_tiers" } });
    }
  });

/** A validated AE3 document. */
export type Ae3Document = z.output<typeof ae3DocumentSchema>;
/** An AE3 document as stored (platform optional). */
export type Ae3DocumentInput = z.input<typeof ae3DocumentSchema>;
