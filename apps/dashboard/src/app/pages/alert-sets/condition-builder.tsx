import { useEffect, useId, useState } from "preact/hooks";
import type { FieldErrors } from "../../ui/errors.js";
import { NumberField, SelectField, TextAreaField, TextField } from "../../ui/field.js";
import { COMPARISONS, fromJsonLogic, toJsonLogic } from "./conditions.js";
import type { Clause, Comparison } from "./conditions.js";

const KINDS = [
  { value: "type", label: "Alert type is" },
  { value: "platform", label: "Platform is" },
  { value: "range", label: "Value between" },
  { value: "compare", label: "Value compares" },
  { value: "random", label: "Random share" },
] as const;

/** An alert type of the catalog: its id (what the condition stores) and its name (what the list shows). */
export interface TypeOption {
  value: string;
  label: string;
}

function blank(kind: Clause["kind"], types: readonly TypeOption[], platforms: readonly string[], variables: readonly string[]): Clause {
  const variable = variables.includes("amount") ? "amount" : (variables[0] ?? "amount");
  switch (kind) {
    case "type":
      return { kind, value: types[0]?.value ?? "follow" };
    case "platform":
      return { kind, value: platforms[0] ?? "twitch" };
    case "range":
      return { kind, variable, min: 0, max: 100 };
    case "compare":
      return { kind, variable, op: ">=", value: 100 };
    case "random":
      return { kind, percent: 50 };
  }
}

/** A typed value from a text box: a number when it reads as one, true/false, else the text. */
function typed(text: string): string | number | boolean {
  if (text.trim() !== "" && Number.isFinite(Number(text))) return Number(text);
  if (text === "true" || text === "false") return text === "true";
  return text;
}

function ClauseRow({ clause, index, onChange, onRemove, types, platforms, variables, listId }: { clause: Clause; index: number; onChange: (c: Clause) => void; onRemove: () => void; types: readonly TypeOption[]; platforms: readonly string[]; variables: readonly string[]; listId: string }) {
  const n = (field: string) => `clause.${index}.${field}`;
  return (
    <li class="clause" data-kind={clause.kind}>
      <SelectField label={`Condition ${index + 1}`} name={n("kind")} value={clause.kind} options={KINDS} onChange={(kind) => onChange(blank(kind as Clause["kind"], types, platforms, variables))} />
      {clause.kind === "type" ? <SelectField label="Type" name={n("type")} value={clause.value} options={types} onChange={(value) => onChange({ ...clause, value })} /> : null}
      {clause.kind === "platform" ? <SelectField label="Platform" name={n("platform")} value={clause.value} options={platforms} onChange={(value) => onChange({ ...clause, value })} /> : null}
      {clause.kind === "range" || clause.kind === "compare" ? (
        <TextField label="Data key" name={n("variable")} value={clause.variable} input={{ spellcheck: false }} onChange={(variable) => onChange({ ...clause, variable })} listId={listId} />
      ) : null}
      {clause.kind === "range" ? (
        <>
          <NumberField label="From" name={n("min")} value={clause.min} step="any" onChange={(min) => onChange({ ...clause, min: min ?? 0 })} />
          <NumberField label="To" name={n("max")} value={clause.max} step="any" onChange={(max) => onChange({ ...clause, max: max ?? 0 })} />
        </>
      ) : null}
      {clause.kind === "compare" ? (
        <>
          <SelectField label="Operator" name={n("op")} value={clause.op} options={COMPARISONS} onChange={(op) => onChange({ ...clause, op: op as Comparison })} />
          <TextField label="Value" name={n("value")} value={String(clause.value)} onChange={(text) => onChange({ ...clause, value: typed(text) })} />
        </>
      ) : null}
      {clause.kind === "random" ? <NumberField label="Share of alerts (%)" name={n("percent")} value={clause.percent} min={1} max={100} step={1} onChange={(percent) => onChange({ ...clause, percent: percent ?? 1 })} /> : null}
      <button type="button" class="button secondary small remove-clause" aria-label={`Remove condition ${index + 1}`} onClick={onRemove}>
        Remove
      </button>
    </li>
  );
}

/**
 * A variation's conditions: a builder for the common clauses (type, platform, value ranges and
 * comparisons, random share), all of which must hold, beside the raw JsonLogic. Editing either
 * side updates the other; a condition the builder cannot show stays editable as JSON.
 */
export function ConditionBuilder({ value, onChange, errors, name, types, platforms, variables }: { value: unknown; onChange: (rule: unknown) => void; errors: FieldErrors; name: string; types: readonly TypeOption[]; platforms: readonly string[]; variables: readonly string[] }) {
  const [text, setText] = useState(() => JSON.stringify(value, null, 2));
  const [parseError, setParseError] = useState<string | null>(null);
  const listId = useId();
  // A change from outside (another tab of the form, a reload) replaces the text unless it says the same.
  useEffect(() => {
    setText((current) => {
      try {
        if (JSON.stringify(JSON.parse(current)) === JSON.stringify(value)) return current;
      } catch {
        // The text is being typed and does not parse: the builder's value wins only when it changed.
      }
      return JSON.stringify(value, null, 2);
    });
  }, [value]);
  const clauses = fromJsonLogic(value);
  const fromBuilder = (next: Clause[]) => {
    const rule = toJsonLogic(next);
    setParseError(null);
    setText(JSON.stringify(rule, null, 2));
    onChange(rule);
  };
  const conditionErrors: Record<string, readonly string[]> = {};
  const messages = Object.entries(errors)
    .filter(([key]) => key === name || key.startsWith(`${name}.`))
    .flatMap(([, m]) => m);
  if (parseError) messages.unshift(parseError);
  if (messages.length > 0) conditionErrors[name] = messages;
  return (
    <div class="condition-builder">
      <div class="builder-side">
        <h4 class="sub-heading">Show this variation when</h4>
        {clauses === null ? (
          <p class="notice">The builder cannot show this condition. Edit its JsonLogic beside.</p>
        ) : (
          <>
            {clauses.length === 0 ? <p class="muted">Every alert (no condition).</p> : null}
            <ol class="clauses">
              {clauses.map((clause, i) => (
                <ClauseRow
                  key={i}
                  index={i}
                  clause={clause}
                  types={types}
                  platforms={platforms}
                  variables={variables}
                  listId={listId}
                  onChange={(c) => fromBuilder(clauses.map((old, j) => (j === i ? c : old)))}
                  onRemove={() => fromBuilder(clauses.filter((_, j) => j !== i))}
                />
              ))}
            </ol>
            <button type="button" class="button secondary small" onClick={() => fromBuilder([...clauses, blank(clauses.length === 0 ? "type" : "range", types, platforms, variables)])}>
              Add a condition
            </button>
          </>
        )}
        <datalist id={listId}>
          {variables.map((v) => (
            <option key={v} value={v} />
          ))}
        </datalist>
      </div>
      <div class="json-side">
        <TextAreaField
          label="JsonLogic"
          name={name}
          class="code"
          rows={10}
          spellcheck={false}
          value={text}
          errors={conditionErrors}
          hint="Variables: type, platform, random (1–100), enabled and every key of the alert's data."
          onChange={(next) => {
            setText(next);
            try {
              const rule: unknown = JSON.parse(next);
              setParseError(null);
              onChange(rule);
            } catch (error) {
              setParseError(`Not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
            }
          }}
        />
      </div>
    </div>
  );
}
