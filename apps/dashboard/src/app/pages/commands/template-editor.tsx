import { useEffect, useId, useRef } from "preact/hooks";

/** Where the server says a template is wrong (1-based), with its message. */
export interface TemplateProblem {
  line: number;
  column: number;
  message: string;
}

/** The offset in `text` of a 1-based line and column (clamped to the text). */
export function offsetOf(text: string, line: number, column: number): number {
  const lines = text.split("\n");
  let offset = 0;
  for (let i = 0; i < Math.min(line - 1, lines.length - 1); i++) offset += (lines[i]?.length ?? 0) + 1;
  const current = lines[Math.min(line - 1, lines.length - 1)] ?? "";
  return offset + Math.max(0, Math.min(column - 1, current.length));
}

/**
 * A monospace template editor with line numbers. A syntax error of the server is shown under it with
 * its line and column, the line is marked in the gutter, and "Show the spot" puts the caret there.
 */
export function TemplateEditor(props: { label: string; name: string; value: string; onChange: (value: string) => void; problem: TemplateProblem | null; otherErrors: readonly string[]; hint: string }) {
  const { label, name, value, onChange, problem, otherErrors, hint } = props;
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  const lineCount = Math.max(1, value.split("\n").length);
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const invalid = problem !== null || otherErrors.length > 0;

  const syncScroll = () => {
    if (gutter.current && area.current) gutter.current.scrollTop = area.current.scrollTop;
  };
  useEffect(syncScroll, [value]);

  const showSpot = () => {
    const el = area.current;
    if (!el || problem === null) return;
    const at = offsetOf(value, problem.line, problem.column);
    el.focus();
    el.setSelectionRange(at, Math.min(at + 1, value.length));
  };

  return (
    <div class={`field template-field${invalid ? " field-invalid" : ""}`} data-field={name}>
      <label for={id}>{label}</label>
      <div class="template-editor">
        <div class="template-gutter" ref={gutter} aria-hidden="true">
          {Array.from({ length: lineCount }, (_, i) => (
            <span key={i} class={problem?.line === i + 1 ? "gutter-line gutter-error" : "gutter-line"}>
              {i + 1}
            </span>
          ))}
        </div>
        <textarea
          ref={area}
          id={id}
          name={name}
          class="code"
          rows={Math.min(16, Math.max(6, lineCount + 1))}
          spellcheck={false}
          value={value}
          wrap="off"
          aria-describedby={`${hintId}${invalid ? ` ${errorId}` : ""}`}
          aria-invalid={invalid ? "true" : undefined}
          onInput={(event) => onChange(event.currentTarget.value)}
          onScroll={syncScroll}
        />
      </div>
      <p class="hint" id={hintId}>
        {hint}
      </p>
      {invalid ? (
        <div class="field-error template-error" id={errorId} data-line={problem?.line} data-column={problem?.column}>
          {problem !== null ? (
            <p>
              <strong>
                Line {problem.line}, column {problem.column}:
              </strong>{" "}
              {problem.message}{" "}
              <button type="button" class="button secondary small" onClick={showSpot}>
                Show the spot
              </button>
            </p>
          ) : null}
          {otherErrors.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      ) : null}
    </div>
  );
}
