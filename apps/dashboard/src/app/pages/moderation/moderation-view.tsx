import type { ModerationView } from "@ovation/client";
import { useState } from "preact/hooks";
import { messageOf } from "../../ui/errors.js";
import { TextField } from "../../ui/field.js";
import { useToast } from "../../ui/toast.js";
import { useClient } from "../kit/client.js";
import { LoadState } from "../kit/load-state.js";
import { useLoad } from "../kit/use-load.js";

const RULE_NAMES: Readonly<Record<string, string>> = {
  caps: "Capital letters",
  symbols: "Symbols",
  links: "Links",
  bad_words: "Bad words",
  length: "Long messages",
  toxicity: "Toxicity",
};

const GROUPS = ["broadcaster", "moderator", "vip", "subscriber"] as const;

type Action = { type: string; seconds?: number | undefined };

function actionText(action: Action): string {
  return action.type === "timeout" ? `timeout ${action.seconds ?? 0} s` : action.type;
}

type Verdict = { rule: string; action: Action; detail: string } | null;

function TestMessage() {
  const client = useClient();
  const [message, setMessage] = useState("");
  const [badges, setBadges] = useState<readonly string[]>([]);
  const [result, setResult] = useState<{ verdict: Verdict } | { error: string } | null>(null);
  const run = async (event: Event) => {
    event.preventDefault();
    try {
      const answer = await client.moderation.test({ message, event: { badges: badges.map((type) => ({ type, text: null, id: type, count: null })) } });
      setResult({ verdict: answer.verdict });
    } catch (error) {
      setResult({ error: messageOf(error) });
    }
  };
  return (
    <form class="card stack" aria-labelledby="test-message-heading" onSubmit={(event) => void run(event)}>
      <h2 id="test-message-heading">Test a message</h2>
      <TextField label="Chat message" name="message" value={message} onChange={setMessage} errors={{}} maxLength={500} input={{ autocomplete: "off" }} />
      <fieldset class="inline-choices">
        <legend>The writer is</legend>
        {GROUPS.map((group) => (
          <label key={group}>
            <input type="checkbox" checked={badges.includes(group)} onChange={(e) => setBadges(e.currentTarget.checked ? [...badges, group] : badges.filter((b) => b !== group))} /> {group}
          </label>
        ))}
      </fieldset>
      <div class="actions">
        <button type="submit" class="button primary" disabled={message.trim() === ""}>
          Test
        </button>
      </div>
      {result === null ? null : "error" in result ? (
        <p class="field-error" role="alert">
          {result.error}
        </p>
      ) : (
        <output class="moderation-verdict" data-rule={result.verdict?.rule ?? "none"}>
          {result.verdict === null
            ? "No rule fires: the message stays."
            : `${RULE_NAMES[result.verdict.rule] ?? result.verdict.rule} fires (${result.verdict.detail}): ${actionText(result.verdict.action)}.`}
        </output>
      )}
    </form>
  );
}

type RuleSettings = { enabled: boolean; exempt: readonly string[]; action?: Action };

const ACTIONS = ["warn", "delete", "timeout", "ban"] as const;

/**
 * The rules, each editable in place: on or off, its action (the toxicity rule acts by score) and
 * who is exempt. A change saves at once (`PUT .../moderation` with every rule, as the API replaces
 * the whole settings); a refusal puts the row back and says why.
 */
function Rules({ view, onSaved }: { view: ModerationView; onSaved: (view: ModerationView) => void }) {
  const client = useClient();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const rules = Object.entries(view.settings) as [string, RuleSettings][];
  const save = async (rule: string, change: Partial<RuleSettings>) => {
    setBusy(true);
    const settings = { ...view.settings, [rule]: { ...(view.settings as Record<string, RuleSettings>)[rule], ...change } } as ModerationView["settings"];
    // The choice shows at once; a refusal puts the row back.
    onSaved({ ...view, settings });
    try {
      onSaved(await client.moderation.replace(settings));
      toast("success", `Saved ${RULE_NAMES[rule] ?? rule}.`);
    } catch (error) {
      onSaved(view);
      toast("error", messageOf(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card stack" aria-labelledby="rules-heading">
      <h2 id="rules-heading">Rules</h2>
      <div class="table-wrap">
        <table class="data data-table" aria-describedby="rules-heading">
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col">On</th>
              <th scope="col">Action</th>
              <th scope="col">Exempt</th>
            </tr>
          </thead>
          <tbody>
            {rules.map(([rule, settings]) => {
              const name = RULE_NAMES[rule] ?? rule;
              const action = settings.action;
              return (
                <tr key={rule} data-rule={rule}>
                  <th scope="row" data-label="Rule">
                    {name}
                  </th>
                  <td data-label="On">
                    <label>
                      <input type="checkbox" aria-label={`${name} on`} checked={settings.enabled} disabled={busy} onChange={(e) => void save(rule, { enabled: e.currentTarget.checked })} />{" "}
                      <span class={settings.enabled ? "badge active" : "badge"}>{settings.enabled ? "on" : "off"}</span>
                    </label>
                  </td>
                  <td data-label="Action">
                    {action === undefined ? (
                      "by score"
                    ) : (
                      <span class="inline-choices">
                        <select aria-label={`${name} action`} value={action.type} disabled={busy} onChange={(e) => void save(rule, { action: e.currentTarget.value === "timeout" ? { type: "timeout", seconds: 600 } : { type: e.currentTarget.value } })}>
                          {ACTIONS.map((type) => (
                            <option key={type} value={type}>
                              {type}
                            </option>
                          ))}
                        </select>
                        {action.type === "timeout" ? <span class="cell-sub">{action.seconds ?? 0} s</span> : null}
                      </span>
                    )}
                  </td>
                  <td data-label="Exempt">
                    <span class="inline-choices">
                      {GROUPS.map((group) => (
                        <label key={group}>
                          <input
                            type="checkbox"
                            aria-label={`${name}: ${group} exempt`}
                            checked={settings.exempt.includes(group)}
                            disabled={busy}
                            onChange={(e) => void save(rule, { exempt: e.currentTarget.checked ? [...settings.exempt, group] : settings.exempt.filter((g) => g !== group) })}
                          />{" "}
                          {group}
                        </label>
                      ))}
                    </span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p class="hint">Word lists, patterns, allowed domains, lengths and toxicity thresholds are set through the API: PUT /v1/bots/@me/moderation (docs/moderation.md).</p>
    </section>
  );
}

/** Auto-moderation: the rules, their exemptions and actions, and a message tried against them. */
export default function Moderation() {
  const client = useClient();
  const loaded = useLoad(() => client.moderation.get(), []);
  return (
    <div class="stack">
      <p class="lead">What the bot does about messages that break your rules, who is exempt, and which rule a message would break.</p>
      <TestMessage />
      <LoadState loaded={loaded} what="Auto-moderation">
        {(view) => <Rules view={view} onSaved={(saved) => loaded.set(() => saved)} />}
      </LoadState>
    </div>
  );
}
