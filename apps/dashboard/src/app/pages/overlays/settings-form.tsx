import { CheckboxField, NumberField, SelectField, TextAreaField, TextField } from "../../ui/field.js";
import type { FieldErrors } from "../../ui/errors.js";

/** Choices of the enumerated options (the server checks them too). */
const CHOICES: Readonly<Record<string, readonly string[]>> = {
  theme: ["dark", "light", "bubble", "clean"],
};

const label = (key: string) => key.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

/**
 * A form for a source's options, drawn from the option set the server answers (every option has a
 * value there): switches for booleans, number fields, a list for themes, comma-separated lists for
 * names, and JSON for the nested maps (effects per alert type, read-aloud types). Errors come back
 * from the server as `settings.<field>`.
 */
export function SettingsForm({ value, onChange, errors, prefix = "settings" }: { value: Record<string, unknown>; onChange: (next: Record<string, unknown>) => void; errors: FieldErrors; prefix?: string }) {
  const set = (key: string, next: unknown) => onChange({ ...value, [key]: next });
  return (
    <div class="form-grid">
      {Object.entries(value).map(([key, current]) => {
        const name = `${prefix}.${key}`;
        if (key === "parts") return null; // scenes: the layout editor draws these
        if (typeof current === "boolean") return <CheckboxField key={key} label={label(key)} name={name} checked={current} onChange={(checked) => set(key, checked)} errors={errors} />;
        if (typeof current === "number") return <NumberField key={key} label={label(key)} name={name} value={current} onChange={(next) => set(key, next ?? 0)} errors={errors} />;
        if (typeof current === "string" && CHOICES[key]) return <SelectField key={key} label={label(key)} name={name} value={current} onChange={(next) => set(key, next)} options={CHOICES[key] ?? []} errors={errors} />;
        if (typeof current === "string") return <TextField key={key} label={label(key)} name={name} value={current} onChange={(next) => set(key, next)} errors={errors} />;
        if (Array.isArray(current)) {
          return (
            <TextField
              key={key}
              label={label(key)}
              name={name}
              value={current.join(", ")}
              onChange={(next) => set(key, next.split(",").map((s) => s.trim()).filter((s) => s !== ""))}
              errors={errors}
              hint="Separated by commas; empty for all."
            />
          );
        }
        if (current !== null && typeof current === "object" && key !== "tts") {
          return <JsonField key={key} name={name} value={current} onChange={(next) => set(key, next)} errors={errors} />;
        }
        if (key === "tts" && current !== null && typeof current === "object") {
          return (
            <fieldset key={key} class="span-all overlay-fieldset">
              <legend>Read-aloud alerts</legend>
              <SettingsForm value={current as Record<string, unknown>} onChange={(next) => set(key, next)} errors={errors} prefix={name} />
            </fieldset>
          );
        }
        return null;
      })}
    </div>
  );
}

function JsonField({ name, value, onChange, errors }: { name: string; value: unknown; onChange: (next: unknown) => void; errors: FieldErrors }) {
  const key = name.split(".").pop() ?? name;
  return (
    <div class="span-all">
      <TextAreaField
        label={`${label(key)} (JSON)`}
        name={name}
        value={JSON.stringify(value, null, 2)}
        rows={6}
        spellcheck={false}
        onChange={(text) => {
          try {
            onChange(JSON.parse(text));
          } catch {
            // Keep the last valid value until the JSON reads again.
          }
        }}
        errors={errors}
      />
    </div>
  );
}
