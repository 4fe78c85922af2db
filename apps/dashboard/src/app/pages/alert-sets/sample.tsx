import { exampleAlertData } from "@ovation/core/alerts";
import type { CatalogAlertType } from "@ovation/core/alerts";
import type { PreviewAlert } from "@ovation/browser-source/preview";
import { useState } from "preact/hooks";
import { NumberField, SelectField, TextAreaField } from "../../ui/field.js";

/** The sample alert of a type and platform: the catalog's first example (what a test alert sends without data). */
export function sampleAlert(catalog: readonly CatalogAlertType[], type: string, platform: string, random = 50): PreviewAlert {
  return { type, platform, data: exampleAlertData(type, platform, catalog) as Record<string, unknown>, random };
}

/** Controls of the sample alert: type, platform, data (JSON) and the random draw. */
export function SampleControls({ catalog, value, onChange }: { catalog: readonly CatalogAlertType[]; value: PreviewAlert; onChange: (alert: PreviewAlert) => void }) {
  const [text, setText] = useState(JSON.stringify(value.data, null, 2));
  const [error, setError] = useState<string | null>(null);
  // A new type or platform brings its example data into the box in the same update (an effect would
  // run a frame later and could overwrite what was typed in between).
  const pick = (next: PreviewAlert) => {
    setText(JSON.stringify(next.data, null, 2));
    setError(null);
    onChange(next);
  };
  const type = catalog.find((t) => t.type === value.type);
  const platforms = (type?.platforms ?? []).map((p) => p.platform);
  return (
    <div class="sample form-grid">
      <SelectField
        label="Alert type"
        name="sample.type"
        value={value.type}
        options={catalog.map((t) => ({ value: t.type, label: t.name }))}
        onChange={(next) => {
          const entry = catalog.find((t) => t.type === next);
          const platform = entry?.platforms.some((p) => p.platform === value.platform) ? value.platform : String(entry?.platforms[0]?.platform ?? "twitch");
          pick(sampleAlert(catalog, next, platform, value.random));
        }}
      />
      <SelectField label="Platform" name="sample.platform" value={value.platform} options={platforms} onChange={(platform) => pick(sampleAlert(catalog, value.type, platform, value.random))} />
      <NumberField label="Random draw (1–100)" name="sample.random" value={value.random} min={1} max={100} step={1} onChange={(random) => onChange({ ...value, random: Math.min(100, Math.max(1, Math.round(random ?? 1))) })} />
      <div class="span-all">
        <TextAreaField
          label="Alert data (JSON)"
          name="sample.data"
          class="code"
          rows={5}
          spellcheck={false}
          value={text}
          errors={error ? { "sample.data": [error] } : {}}
          onChange={(next) => {
            setText(next);
            try {
              const data: unknown = JSON.parse(next);
              if (data === null || typeof data !== "object" || Array.isArray(data)) throw new Error("must be a JSON object");
              setError(null);
              onChange({ ...value, data: data as Record<string, unknown> });
            } catch (e) {
              setError(`Not usable: ${e instanceof Error ? e.message : String(e)}`);
            }
          }}
        />
      </div>
    </div>
  );
}
