import type { ComponentChildren } from "preact";
import { useId } from "preact/hooks";
import type { FieldErrors } from "./errors.js";

interface FieldFrame {
  label: string;
  /** Field path in the server's `errors` map (`default.title`); its messages show under the field. */
  name: string;
  errors?: FieldErrors | undefined;
  hint?: string | undefined;
}

/** Label, control, hint and inline errors, wired with `aria-describedby`/`aria-invalid`. */
function Frame({ label, name, errors, hint, children, inline }: FieldFrame & { children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ComponentChildren; inline?: boolean }) {
  const id = useId();
  const messages = errors?.[name] ?? [];
  const hintId = hint ? `${id}-hint` : null;
  const errorId = messages.length > 0 ? `${id}-error` : null;
  const describedBy = [hintId, errorId].filter((x) => x !== null).join(" ") || undefined;
  return (
    <div class={`field${inline ? " field-inline" : ""}${messages.length > 0 ? " field-invalid" : ""}`} data-field={name}>
      {inline ? null : <label for={id}>{label}</label>}
      {children({ id, describedBy, invalid: messages.length > 0 })}
      {inline ? <label for={id}>{label}</label> : null}
      {hint ? (
        <p class="hint" id={hintId ?? undefined}>
          {hint}
        </p>
      ) : null}
      {messages.length > 0 ? (
        <p class="field-error" id={errorId ?? undefined}>
          {messages.join(" ")}
        </p>
      ) : null}
    </div>
  );
}

/** Extra attributes of a text input. */
type InputProps = { autocomplete?: string; inputMode?: "numeric" | "text" | "email" | "url"; autoFocus?: boolean; spellcheck?: boolean };

/** A text-like input (text, url, email, password, search). */
export function TextField(props: FieldFrame & { value: string; onChange: (value: string) => void; type?: string; required?: boolean; placeholder?: string; input?: InputProps; maxLength?: number; listId?: string }) {
  const { value, onChange, type = "text", required, placeholder, input, maxLength, listId, ...frame } = props;
  return (
    <Frame {...frame}>
      {({ id, describedBy, invalid }) => (
        <input
          {...input}
          id={id}
          name={frame.name}
          type={type}
          value={value}
          required={required}
          placeholder={placeholder}
          maxLength={maxLength}
          list={listId}
          aria-describedby={describedBy}
          aria-invalid={invalid ? "true" : undefined}
          onInput={(event) => onChange(event.currentTarget.value)}
        />
      )}
    </Frame>
  );
}

/** A multi-line text input. */
export function TextAreaField(props: FieldFrame & { value: string; onChange: (value: string) => void; rows?: number; spellcheck?: boolean; class?: string }) {
  const { value, onChange, rows = 4, spellcheck, class: className, ...frame } = props;
  return (
    <Frame {...frame}>
      {({ id, describedBy, invalid }) => (
        <textarea
          id={id}
          name={frame.name}
          rows={rows}
          class={className}
          spellcheck={spellcheck}
          value={value}
          aria-describedby={describedBy}
          aria-invalid={invalid ? "true" : undefined}
          onInput={(event) => onChange(event.currentTarget.value)}
        />
      )}
    </Frame>
  );
}

/** A number input; an empty box reads as `null` ("not set"). */
export function NumberField(props: FieldFrame & { value: number | null; onChange: (value: number | null) => void; min?: number; max?: number; step?: number | "any" }) {
  const { value, onChange, min, max, step, ...frame } = props;
  return (
    <Frame {...frame}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          name={frame.name}
          type="number"
          inputMode="decimal"
          value={value === null ? "" : String(value)}
          min={min}
          max={max}
          step={step}
          aria-describedby={describedBy}
          aria-invalid={invalid ? "true" : undefined}
          onInput={(event) => {
            const text = event.currentTarget.value;
            onChange(text === "" || !Number.isFinite(Number(text)) ? null : Number(text));
          }}
        />
      )}
    </Frame>
  );
}

/** A select; `""` stands for "not set" when `emptyLabel` is given. */
export function SelectField(props: FieldFrame & { value: string; onChange: (value: string) => void; options: readonly (string | { value: string; label: string })[]; emptyLabel?: string }) {
  const { value, onChange, options, emptyLabel, ...frame } = props;
  return (
    <Frame {...frame}>
      {({ id, describedBy, invalid }) => (
        <select id={id} name={frame.name} value={value} aria-describedby={describedBy} aria-invalid={invalid ? "true" : undefined} onChange={(event) => onChange(event.currentTarget.value)}>
          {emptyLabel !== undefined ? <option value="">{emptyLabel}</option> : null}
          {options.map((o) => {
            const option = typeof o === "string" ? { value: o, label: o } : o;
            return (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            );
          })}
        </select>
      )}
    </Frame>
  );
}

/** A checkbox with its label after it. */
export function CheckboxField(props: FieldFrame & { checked: boolean; onChange: (checked: boolean) => void }) {
  const { checked, onChange, ...frame } = props;
  return (
    <Frame {...frame} inline>
      {({ id, describedBy, invalid }) => (
        <input id={id} name={frame.name} type="checkbox" checked={checked} aria-describedby={describedBy} aria-invalid={invalid ? "true" : undefined} onChange={(event) => onChange(event.currentTarget.checked)} />
      )}
    </Frame>
  );
}

/** A `#rrggbb` colour: a colour picker and the hex text side by side; empty means "not set". */
export function ColorField(props: FieldFrame & { value: string | null; onChange: (value: string | null) => void; fallback?: string }) {
  const { value, onChange, fallback = "#ffffff", ...frame } = props;
  return (
    <Frame {...frame}>
      {({ id, describedBy, invalid }) => (
        <div class="color-input">
          <input type="color" aria-label={`${frame.label} picker`} tabIndex={-1} value={value ?? fallback} onInput={(event) => onChange(event.currentTarget.value)} />
          <input
            id={id}
            name={frame.name}
            type="text"
            value={value ?? ""}
            placeholder={`not set (${fallback})`}
            spellcheck={false}
            maxLength={7}
            aria-describedby={describedBy}
            aria-invalid={invalid ? "true" : undefined}
            onInput={(event) => onChange(event.currentTarget.value === "" ? null : event.currentTarget.value)}
          />
        </div>
      )}
    </Frame>
  );
}

/** Errors that belong to no field on screen (`(root)`, or fields of another form). */
export function FormErrors({ errors, shown }: { errors: FieldErrors; shown?: readonly string[] }) {
  const rest = Object.entries(errors).filter(([key]) => !(shown ?? []).includes(key));
  if (rest.length === 0) return null;
  return (
    <div class="form-errors" role="alert">
      <p>The server refused these values:</p>
      <ul>
        {rest.map(([key, messages]) => (
          <li key={key}>
            <code>{key}</code>: {messages.join(" ")}
          </li>
        ))}
      </ul>
    </div>
  );
}
