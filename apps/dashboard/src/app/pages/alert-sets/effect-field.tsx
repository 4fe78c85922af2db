import { OVERLAY_EFFECTS } from "@ovation/core/overlays";
import type { FieldErrors } from "../../ui/errors.js";
import { NumberField, SelectField } from "../../ui/field.js";

const LABELS: Record<(typeof OVERLAY_EFFECTS)[number], string> = {
  none: "No effect",
  confetti: "Confetti",
  "emote-rain": "Emote rain",
  fireworks: "Fireworks",
  hearts: "Hearts",
};

/** A stored effect as the editor reads it (`{effect, per_amount?, min_pieces?, max_pieces?}`), or none. */
function effectRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && typeof (value as { effect?: unknown }).effect === "string" ? (value as Record<string, unknown>) : null;
}

/**
 * The full-screen effect the `effect-alerts` browser source plays for the alerts of a type default or
 * a variation: "inherited" (absent: the earlier layer's choice, at last the source's own option), no
 * effect, or one of the effects with how many pieces per unit of the alert's amount.
 */
export function EffectField({ name, value, errors, onChange }: { name: string; value: unknown; errors: FieldErrors; onChange: (effect: Record<string, unknown> | undefined) => void }) {
  const current = effectRecord(value);
  const chosen = typeof current?.["effect"] === "string" ? current["effect"] : "";
  const perAmount = typeof current?.["per_amount"] === "number" ? current["per_amount"] : null;
  return (
    <div class="form-grid effect-field">
      <SelectField
        label="Full-screen effect (effect-alerts source)"
        name={`${name}.effect`}
        value={chosen}
        emptyLabel="Inherited"
        options={OVERLAY_EFFECTS.map((effect) => ({ value: effect, label: LABELS[effect] }))}
        hint="Played by the effect-alerts browser source, in step with this alert."
        errors={errors}
        onChange={(effect) => onChange(effect === "" ? undefined : { ...(current ?? {}), effect })}
      />
      {chosen !== "" && chosen !== "none" ? (
        <NumberField
          label="Pieces per unit of amount (bits, gifts, viewers)"
          name={`${name}.per_amount`}
          value={perAmount}
          min={0}
          max={100}
          step="any"
          errors={errors}
          onChange={(per) => {
            const next: Record<string, unknown> = { ...(current ?? {}), effect: chosen };
            if (per === null) delete next["per_amount"];
            else next["per_amount"] = per;
            onChange(next);
          }}
        />
      ) : null}
    </div>
  );
}
