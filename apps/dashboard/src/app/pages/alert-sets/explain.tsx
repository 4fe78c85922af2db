import { explainAlert } from "@ovation/core/alerts";
import type { AlertSetInput, TemplateField } from "@ovation/core/alerts";
import type { PreviewAlert } from "@ovation/browser-source/preview";

type Explanation = ReturnType<typeof explainAlert>;
type Source = Explanation["fields"][TemplateField]["source"];

/** Where a field's value came from, in words. */
export function sourceLabel(source: Source): string {
  switch (source.layer) {
    case "engine":
      return "engine default";
    case "set":
      return "set default";
    case "type":
      return `type default “${source.name}”`;
    case "variation":
      return `variation “${source.name}”`;
  }
}

const REASONS: Record<string, string> = {
  no_type_default: "the set has no type default for this type on this platform",
  type_default_disabled: "the type default is turned off",
  no_matching_variation: "no variation's condition holds for this alert",
};

/** The explain view: which variations matched, and for every field its value and the layer that set it. */
export function ExplainView({ set, alert }: { set: AlertSetInput | null; alert: PreviewAlert }) {
  if (set === null) return <p class="muted">Fix the errors in the form to see the explanation.</p>;
  let explanation: Explanation;
  try {
    explanation = explainAlert(set, { type: alert.type, platform: alert.platform, data: alert.data, random: alert.random });
  } catch (error) {
    return <p class="field-error">{error instanceof Error ? error.message : String(error)}</p>;
  }
  return (
    <div class="explain" data-testid="explain">
      <p>
        {explanation.disabled ? (
          <strong>Not shown: {REASONS[explanation.reason ?? ""] ?? explanation.reason}.</strong>
        ) : (
          <>
            Shown with the type default <strong>{explanation.typeDefault?.name}</strong>.
          </>
        )}
      </p>
      <ul class="variation-matches">
        {explanation.variations.map((v) => (
          <li key={v.index} data-matched={v.matched ? "true" : "false"}>
            <span class={`badge${v.matched ? " active" : ""}`}>{v.matched ? "matches" : "no match"}</span> {v.name}
          </li>
        ))}
      </ul>
      <div class="table-wrap">
        <table class="data">
          <caption class="visually-hidden">Value of every field and the layer that set it</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Value</th>
              <th scope="col">Set by</th>
            </tr>
          </thead>
          <tbody>
            {(Object.entries(explanation.fields) as [TemplateField, Explanation["fields"][TemplateField]][]).map(([field, info]) => (
              <tr key={field} data-field={field}>
                <th scope="row">
                  <code>{field}</code>
                </th>
                <td class="explain-value">{info.value === "" ? <span class="muted">(empty)</span> : String(info.value)}</td>
                <td>
                  {sourceLabel(info.source)}
                  {info.overridden.length > 0 ? <span class="muted"> (over {info.overridden.map(sourceLabel).join(", ")})</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
