import { ALERT_LIMITS, ENGINE_DEFAULT_TEMPLATE } from "@ovation/core/alerts";
import type { AlertTemplate, TemplateField, TemplateLayer } from "@ovation/core/alerts";
import { ALERT_LAYOUTS, BUNDLED_FONTS, ENTER_ANIMATIONS, FONT_ANIMATIONS, LEAVE_ANIMATIONS, kebabName } from "@ovation/browser-source/preview";
import type { ComponentChildren } from "preact";
import type { FieldErrors } from "../../ui/errors.js";
import { ColorField, NumberField, SelectField, TextField } from "../../ui/field.js";
import { MediaField } from "./media-field.js";

type Value = TemplateLayer[TemplateField];

/** Props of the form of one template layer (set default, type default, variation overrides). */
export interface LayerFormProps {
  layer: TemplateLayer;
  onChange: (layer: TemplateLayer) => void;
  /** Errors keyed by field name (`title`), already stripped of the layer's path. */
  errors: FieldErrors;
  /** What the field would be without this layer (shown as "inherited"). */
  inherited?: Partial<AlertTemplate>;
  /** Prefix of the inputs' names (`default.`), for tests and the server's error keys. */
  prefix: string;
}

const WEIGHTS = [100, 200, 300, 400, 500, 600, 700, 800, 900].map((w) => ({ value: String(w), label: String(w) }));

/** Options of a name select: the known names, plus the current value when it is another valid name. */
function nameOptions(known: readonly string[], current: unknown): string[] {
  return typeof current === "string" && current !== "" && !known.includes(current) ? [...known, current] : [...known];
}

const ANIMATION_FIELDS: ReadonlySet<TemplateField> = new Set<TemplateField>(["animation_alert_enter", "animation_alert_leave", "font_animation"]);

/** One field's frame: the control, and a "use inherited" button once the layer sets it. */
function Inheritable({ field, layer, onChange, inherited, children }: { field: TemplateField; layer: TemplateLayer; onChange: (layer: TemplateLayer) => void; inherited: Partial<AlertTemplate>; children: ComponentChildren }) {
  const set = layer[field] !== null && layer[field] !== undefined;
  const raw = inherited[field] ?? ENGINE_DEFAULT_TEMPLATE[field];
  // Animation names are shown as the list spells them (the page reads `fadeIn` as `fade-in`).
  const from = ANIMATION_FIELDS.has(field) ? kebabName(raw) : raw;
  return (
    <div class={`layer-field${set ? " is-set" : ""}`}>
      {children}
      <p class="hint inherit-line">
        {set ? (
          <button
            type="button"
            class="link-button"
            onClick={() => {
              const next = { ...layer };
              delete next[field];
              onChange(next);
            }}
          >
            Use inherited value
          </button>
        ) : (
          <span>Inherited: {from === "" ? "(empty)" : String(from)}</span>
        )}
      </p>
    </div>
  );
}

/**
 * Every template field of one layer, grouped (text, media, timing, font, layout and animation).
 * An empty control means "not set in this layer" (`null`): the earlier layer's value stays.
 */
export function LayerForm({ layer, onChange, errors, inherited = {}, prefix }: LayerFormProps) {
  const set = (field: TemplateField, value: Value) => {
    const next: Record<string, unknown> = { ...layer };
    if (value === null || value === undefined) delete next[field];
    else next[field] = value;
    onChange(next as TemplateLayer);
  };
  const str = (field: TemplateField): string => {
    const v = layer[field];
    return typeof v === "string" ? v : "";
  };
  const num = (field: TemplateField): number | null => {
    const v = layer[field];
    return typeof v === "number" ? v : null;
  };
  const frame = { layer, onChange, inherited };
  const name = (field: string) => `${prefix}${field}`;
  const fieldErrors = Object.fromEntries(Object.entries(errors).map(([k, v]) => [name(k), v]));
  const L = ALERT_LIMITS;
  return (
    <div class="layer-form">
      <fieldset>
        <legend>Text</legend>
        <div class="form-grid">
          {(["title", "subtitle", "chat_message"] as const).map((field) => (
            <Inheritable key={field} field={field} {...frame}>
              <TextField
                label={field === "chat_message" ? "Chat message" : field === "title" ? "Title" : "Subtitle"}
                name={name(field)}
                value={str(field)}
                maxLength={L.textLength}
                placeholder={String(inherited[field] ?? "")}
                hint="{{name}} inserts a value of the alert's data."
                errors={fieldErrors}
                onChange={(v) => set(field, v)}
              />
            </Inheritable>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>Image and sound</legend>
        <div class="form-grid">
          <Inheritable field="image_href" {...frame}>
            <MediaField kind="image" label="Image" name={name("image_href")} value={layer.image_href ?? null} errors={fieldErrors} onChange={(v) => set("image_href", v)} />
          </Inheritable>
          <Inheritable field="sound_href" {...frame}>
            <MediaField kind="sound" label="Sound" name={name("sound_href")} value={layer.sound_href ?? null} errors={fieldErrors} onChange={(v) => set("sound_href", v)} />
          </Inheritable>
          <Inheritable field="volume" {...frame}>
            <NumberField label="Volume (%)" name={name("volume")} value={num("volume")} min={L.volume.min} max={L.volume.max} step={1} errors={fieldErrors} onChange={(v) => set("volume", v)} />
          </Inheritable>
          <Inheritable field="display_time" {...frame}>
            <NumberField
              label="Display time (ms)"
              name={name("display_time")}
              value={num("display_time")}
              min={L.displayTimeMs.min}
              max={L.displayTimeMs.max}
              step={100}
              errors={fieldErrors}
              onChange={(v) => set("display_time", v)}
            />
          </Inheritable>
        </div>
      </fieldset>
      <fieldset>
        <legend>Font</legend>
        <div class="form-grid">
          <Inheritable field="font_family" {...frame}>
            <TextField
              label="Font"
              name={name("font_family")}
              value={str("font_family")}
              placeholder={String(inherited.font_family ?? ENGINE_DEFAULT_TEMPLATE.font_family)}
              hint={`Bundled: ${BUNDLED_FONTS.join(", ")}; other names use a font installed where OBS runs.`}
              input={{ spellcheck: false }}
              errors={fieldErrors}
              onChange={(v) => set("font_family", v === "" ? null : v)}
            />
          </Inheritable>
          <Inheritable field="font_size" {...frame}>
            <NumberField
              label="Size (× 36 px)"
              name={name("font_size")}
              value={num("font_size")}
              min={L.fontSize.min}
              max={L.fontSize.max}
              step={0.1}
              errors={fieldErrors}
              onChange={(v) => set("font_size", v)}
            />
          </Inheritable>
          <Inheritable field="font_weight" {...frame}>
            <SelectField label="Weight" name={name("font_weight")} value={num("font_weight") === null ? "" : String(num("font_weight"))} options={WEIGHTS} emptyLabel="Inherit" errors={fieldErrors} onChange={(v) => set("font_weight", v === "" ? null : Number(v))} />
          </Inheritable>
          <Inheritable field="font_color" {...frame}>
            <ColorField label="Colour" name={name("font_color")} value={layer.font_color ?? null} fallback={String(inherited.font_color ?? ENGINE_DEFAULT_TEMPLATE.font_color)} errors={fieldErrors} onChange={(v) => set("font_color", v)} />
          </Inheritable>
          <Inheritable field="font_highlight_color" {...frame}>
            <ColorField
              label="Highlight colour"
              name={name("font_highlight_color")}
              value={layer.font_highlight_color ?? null}
              fallback={String(inherited.font_highlight_color ?? ENGINE_DEFAULT_TEMPLATE.font_highlight_color)}
              errors={fieldErrors}
              onChange={(v) => set("font_highlight_color", v)}
            />
          </Inheritable>
          <Inheritable field="font_animation" {...frame}>
            <SelectField label="Text animation" name={name("font_animation")} value={str("font_animation")} options={nameOptions(FONT_ANIMATIONS, layer.font_animation)} emptyLabel="Inherit" errors={fieldErrors} onChange={(v) => set("font_animation", v === "" ? null : v)} />
          </Inheritable>
          <Inheritable field="font_delay" {...frame}>
            <NumberField label="Text animation delay (ms)" name={name("font_delay")} value={num("font_delay")} min={L.fontDelayMs.min} max={L.fontDelayMs.max} step={50} errors={fieldErrors} onChange={(v) => set("font_delay", v)} />
          </Inheritable>
        </div>
      </fieldset>
      <fieldset>
        <legend>Layout and animation</legend>
        <div class="form-grid">
          <Inheritable field="layout" {...frame}>
            <SelectField label="Layout" name={name("layout")} value={str("layout")} options={nameOptions(ALERT_LAYOUTS, layer.layout)} emptyLabel="Inherit" errors={fieldErrors} onChange={(v) => set("layout", v === "" ? null : v)} />
          </Inheritable>
          <Inheritable field="animation_alert_enter" {...frame}>
            <SelectField
              label="Enter animation"
              name={name("animation_alert_enter")}
              value={str("animation_alert_enter")}
              options={nameOptions(ENTER_ANIMATIONS, layer.animation_alert_enter)}
              emptyLabel="Inherit"
              errors={fieldErrors}
              onChange={(v) => set("animation_alert_enter", v === "" ? null : v)}
            />
          </Inheritable>
          <Inheritable field="animation_alert_leave" {...frame}>
            <SelectField
              label="Leave animation"
              name={name("animation_alert_leave")}
              value={str("animation_alert_leave")}
              options={nameOptions(LEAVE_ANIMATIONS, layer.animation_alert_leave)}
              emptyLabel="Inherit"
              errors={fieldErrors}
              onChange={(v) => set("animation_alert_leave", v === "" ? null : v)}
            />
          </Inheritable>
        </div>
      </fieldset>
    </div>
  );
}
