import * as z from "zod";
import { ALERT_LIMITS } from "./limits.js";

const L = ALERT_LIMITS;

/** A `#rrggbb` colour. */
export const hexColorSchema = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, { error: "must be a hex colour written #rrggbb" });

/** An http(s) address or the empty string (no image / no sound). */
export const mediaHrefSchema = z
  .string()
  .check(z.maxLength(L.urlLength), z.regex(/^(?:$|https?:\/\/[^\s"'<>\\]+$)/i, { error: "must be an http(s) URL or empty" }));

/** A layout or animation name: safe to use as a CSS class or keyframes name. */
export const styleNameSchema = z
  .string()
  .check(
    z.minLength(1),
    z.maxLength(L.nameLength),
    z.regex(/^[A-Za-z][A-Za-z0-9_-]*$/, { error: "must be a name of letters, digits, _ and - starting with a letter" }),
  );

/** A font family name: letters, digits, spaces, _ and - only, so it cannot break out of CSS. */
export const fontFamilySchema = z
  .string()
  .check(
    z.minLength(1),
    z.maxLength(L.nameLength),
    z.regex(/^[A-Za-z0-9][A-Za-z0-9 _-]*$/, { error: "must be a font name of letters, digits, spaces, _ and -" }),
  );

let textSchema: z.ZodString | undefined;
/** The title, subtitle and chat_message schema, built on first use (one instance). */
const text = (): z.ZodString => (textSchema ??= z.string().max(L.textLength));

/**
 * An object whose properties are built on their first read, each once (later reads see the same
 * value). Importing the alerts entry then builds only the schemas other exports are made of; the
 * rest waits for the first parse (zod reads an object schema's shape on its first parse, and
 * resolves getters in a shape once). See "Import cost" in the package README.
 */
function lazyProperties<T extends object>(builders: { readonly [K in keyof T]: () => T[K] }): Readonly<T> {
  const out = {} as T;
  for (const key of Object.keys(builders) as (keyof T & string)[]) {
    Object.defineProperty(out, key, {
      enumerable: true,
      configurable: true,
      get(): T[typeof key] {
        const value = builders[key]();
        Object.defineProperty(out, key, { value, enumerable: true, configurable: false, writable: false });
        return value;
      },
    });
  }
  return out;
}

/**
 * The template fields an alert is rendered from: every field of the custom template variant 2 plus
 * `chat_message`. Units: display_time and font_delay in milliseconds, volume in percent, font_size
 * relative to the layout's base size of 36 px (like CSS `em`: 1.4 = 50.4 px). The number schemas are
 * built on first read.
 */
export const templateFieldShape = lazyProperties({
  image_href: () => mediaHrefSchema,
  sound_href: () => mediaHrefSchema,
  title: text,
  subtitle: text,
  chat_message: text,
  display_time: () => z.number().int().min(L.displayTimeMs.min).max(L.displayTimeMs.max),
  layout: () => styleNameSchema,
  volume: () => z.number().min(L.volume.min).max(L.volume.max),
  font_size: () => z.number().min(L.fontSize.min).max(L.fontSize.max),
  font_family: () => fontFamilySchema,
  font_weight: () => z.number().int().min(L.fontWeight.min).max(L.fontWeight.max),
  font_color: () => hexColorSchema,
  font_highlight_color: () => hexColorSchema,
  font_animation: () => styleNameSchema,
  font_delay: () => z.number().min(L.fontDelayMs.min).max(L.fontDelayMs.max),
  animation_alert_enter: () => styleNameSchema,
  animation_alert_leave: () => styleNameSchema,
});

/** Names of the template fields, in the order of the reference's interface (docs/alerts.md) (chat_message after subtitle). */
export const TEMPLATE_FIELDS = Object.keys(templateFieldShape) as (keyof typeof templateFieldShape)[];

/** A template field name. */
export type TemplateField = keyof typeof templateFieldShape;

/** A fully resolved alert template: every field has a value. */
export type AlertTemplate = { [K in TemplateField]: z.infer<(typeof templateFieldShape)[K]> };

/**
 * One layer of template settings (the set's `default`, a type default's `default`, a variation's
 * `overrides`): every field optional, and `null` allowed meaning "not set in this layer" (the layer is
 * skipped for that field; see docs/alerts.md). Unknown fields are rejected so a typo is reported.
 * Its fields are built on its first parse.
 */
export const templateLayerSchema = z.strictObject(
  lazyProperties(
    Object.fromEntries(TEMPLATE_FIELDS.map((key) => [key, () => templateFieldShape[key].nullable().optional()])) as {
      [K in TemplateField]: () => z.ZodOptional<z.ZodNullable<(typeof templateFieldShape)[K]>>;
    },
  ),
);

/** One layer of template settings. */
export type TemplateLayer = z.infer<typeof templateLayerSchema>;

/** Layer 1 of the merge: the engine's global defaults, which give every field a value. */
export const ENGINE_DEFAULT_TEMPLATE: Readonly<AlertTemplate> = Object.freeze({
  image_href: "",
  sound_href: "",
  title: "",
  subtitle: "",
  chat_message: "",
  display_time: 8000,
  layout: "image-above",
  volume: 50,
  font_size: 1,
  font_family: "Inter",
  font_weight: 700,
  font_color: "#ffffff",
  font_highlight_color: "#9146ff",
  font_animation: "none",
  font_delay: 0,
  animation_alert_enter: "fadeIn",
  animation_alert_leave: "fadeOut",
});

/** Layouts the Ovation browser source draws; another valid name falls back to `image-above` there. */
export const KNOWN_LAYOUTS = ["image-above", "image-left", "image-right", "text-only"] as const;
