import * as z from "zod";
import { platformSchema } from "../platforms.js";
import { ALERT_LIMITS } from "./limits.js";
import { alertTypeSchema } from "./schemas.js";
import type { AlertTemplate } from "./template-settings.js";
import { ENGINE_DEFAULT_TEMPLATE, templateFieldShape } from "./template-settings.js";

const L = ALERT_LIMITS;

/** Problems of one JSON value inside alert data: depth, string and array sizes, finite numbers. */
function dataValueIssues(value: unknown, path: (string | number)[], depth: number, out: { path: (string | number)[]; message: string; rule: string }[]): void {
  if (out.length >= 20) return;
  if (value === null || typeof value === "boolean") return;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) out.push({ path, message: "numbers must be finite", rule: "finite" });
    return;
  }
  if (typeof value === "string") {
    if (value.length > L.dataStringLength) out.push({ path, message: `must be at most ${L.dataStringLength} characters`, rule: "max" });
    return;
  }
  if (typeof value !== "object") {
    out.push({ path, message: "must be a JSON value", rule: "json" });
    return;
  }
  if (depth >= L.dataDepth) {
    out.push({ path, message: `values may be nested at most ${L.dataDepth} levels deep`, rule: "depth" });
    return;
  }
  if (Array.isArray(value)) {
    if (value.length > L.dataArrayLength) out.push({ path, message: `must have at most ${L.dataArrayLength} items`, rule: "max" });
    else value.forEach((item, index) => dataValueIssues(item, [...path, index], depth + 1, out));
    return;
  }
  const entries = Object.entries(value);
  if (entries.length > L.dataKeys) out.push({ path, message: `must have at most ${L.dataKeys} keys`, rule: "max" });
  else for (const [key, item] of entries) dataValueIssues(item, [...path, key], depth + 1, out);
}

/**
 * The `data` of an alert: placeholder values and condition variables. Any JSON object, bounded in
 * keys (100), nesting (5), string length (2000) and array length (500).
 */
export const alertDataSchema = z
  .record(z.string().check(z.minLength(1), z.maxLength(64)), z.unknown())
  .superRefine((data, ctx) => {
    const issues: { path: (string | number)[]; message: string; rule: string }[] = [];
    const entries = Object.entries(data);
    if (entries.length > L.dataKeys) issues.push({ path: [], message: `must have at most ${L.dataKeys} keys`, rule: "max" });
    else for (const [key, value] of entries) dataValueIssues(value, [key], 1, issues);
    for (const issue of issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message, params: { rule: issue.rule } });
  });

/** Alert data as validated. */
export type AlertData = z.output<typeof alertDataSchema>;

/** Variant 1: the name of a stored template (an alert type of the user's active alert set). */
export const storedTemplateNameSchema = alertTypeSchema;

// The fields of the object schemas below that build a schema of their own are getters: zod builds
// them on the schema's first parse (or first read of `.shape`), once, not when this module is
// imported (see "Import cost" in the package README).

/** Variant 2 (beta): an inline custom template with the fields of docs/alerts.md, each optional. */
export const customTemplateSchema = z.strictObject({
  get image_href() {
    return templateFieldShape.image_href.optional();
  },
  get sound_href() {
    return templateFieldShape.sound_href.optional();
  },
  get title() {
    return templateFieldShape.title.optional();
  },
  get subtitle() {
    return templateFieldShape.subtitle.optional();
  },
  get display_time() {
    return templateFieldShape.display_time.optional();
  },
  get layout() {
    return templateFieldShape.layout.optional();
  },
  get volume() {
    return templateFieldShape.volume.optional();
  },
  get font_size() {
    return templateFieldShape.font_size.optional();
  },
  get font_family() {
    return templateFieldShape.font_family.optional();
  },
  get font_weight() {
    return templateFieldShape.font_weight.optional();
  },
  get font_color() {
    return templateFieldShape.font_color.optional();
  },
  get font_highlight_color() {
    return templateFieldShape.font_highlight_color.optional();
  },
  get font_animation() {
    return templateFieldShape.font_animation.optional();
  },
  get font_delay() {
    return templateFieldShape.font_delay.optional();
  },
  get animation_alert_enter() {
    return templateFieldShape.animation_alert_enter.optional();
  },
  get animation_alert_leave() {
    return templateFieldShape.animation_alert_leave.optional();
  },
});

/** A custom field key of a variant-3 template, usable as `{key}` in html/css/js. */
export const customFieldKeySchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/, { error: "must be a key of letters, digits, _ and - (at most 64)" });

/** Variant 3 (closed beta): an inline template with custom HTML/CSS/JS and custom fields. */
export const customCodeTemplateSchema = z.strictObject({
  get user_defaults() {
    return z.boolean().optional();
  },
  get html() {
    return z.string().max(L.customCodeLength).optional();
  },
  get css() {
    return z.string().max(L.customCodeLength).optional();
  },
  get js() {
    return z.string().max(L.customCodeLength).optional();
  },
  get fields() {
    return z
      .record(customFieldKeySchema, z.string().max(L.customFieldLength))
      .refine((fields) => Object.keys(fields).length <= L.customFields, {
        message: `may hold at most ${L.customFields} fields`,
        params: { rule: "max" },
      })
      .optional();
  },
});

/** The `template` of POST /v1/alerts: a stored template name, a variant-2 or a variant-3 object. */
export const alertTriggerTemplateSchema = z.union([storedTemplateNameSchema, customTemplateSchema, customCodeTemplateSchema]);

/** Body of POST /v1/alerts. */
export const alertTriggerSchema = z.object({
  template: alertTriggerTemplateSchema,
  data: alertDataSchema,
});

/**
 * Body of POST /v1/alerts/test: `template` (or its deprecated name `topic`; `template` wins when
 * both are sent), optional `data` (the catalog example of the type when absent) and optional
 * `platform` (twitch when absent; `own3d` accepted).
 */
export const alertTestSchema = z
  .object({
    get template() {
      return alertTriggerTemplateSchema.optional();
    },
    get topic() {
      return alertTriggerTemplateSchema.optional();
    },
    get data() {
      return alertDataSchema.optional();
    },
    get platform() {
      return platformSchema.optional();
    },
  })
  .superRefine((body, ctx) => {
    if (body.template === undefined && body.topic === undefined) {
      ctx.addIssue({ code: "custom", path: ["template"], message: "template (formerly topic) is required", params: { rule: "required" } });
    }
  })
  .transform(({ template, topic, data, platform }) => ({
    template: (template ?? topic) as z.output<typeof alertTriggerTemplateSchema>,
    data,
    platform,
  }));

/** A validated POST /v1/alerts body. */
export type AlertTrigger = z.output<typeof alertTriggerSchema>;
/** A validated POST /v1/alerts/test body (topic folded into template). */
export type AlertTest = z.output<typeof alertTestSchema>;
/** A variant-2 custom template. */
export type CustomTemplate = z.output<typeof customTemplateSchema>;
/** A variant-3 custom template. */
export type CustomCodeTemplate = z.output<typeof customCodeTemplateSchema>;

/** Whether a validated trigger template is variant 3 (custom HTML/CSS/JS) rather than variant 2. */
export function isCustomCodeTemplate(template: CustomTemplate | CustomCodeTemplate): template is CustomCodeTemplate {
  return ["user_defaults", "html", "css", "js", "fields"].some((key) => key in template);
}

/** The full template of a variant-2 custom template: its fields over the engine defaults. */
export function templateFromCustom(template: CustomTemplate): Readonly<AlertTemplate> {
  const out: AlertTemplate = { ...ENGINE_DEFAULT_TEMPLATE };
  for (const [key, value] of Object.entries(template)) {
    if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  }
  return Object.freeze(out);
}
