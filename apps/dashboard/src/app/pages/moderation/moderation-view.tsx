import type { ModerationView } from "@ovation/client";
import { useState } from "preact/hooks";
import { messageOf } from "../../ui/errors.js";
import { TextField } from "../../ui/field.js";
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

function Rules({ view }: { view: ModerationView }) {
  const rules = Object.entries(view.settings) as [string, { enabled: boolean; exempt: readonly string[]; action?: Action }][];
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
            {rules.map(([rule, settings]) => (
              <tr key={rule} data-rule={rule}>
                <th scope="row" data-label="Rule">
                  {RULE_NAMES[rule] ?? rule}
                </th>
                <td data-label="On">{settings.enabled ? <span class="badge active">on</span> : <span class="badge">off</span>}</td>
                <td data-label="Action">{settings.action ? actionText(settings.action) : "by score"}</td>
                <td data-label="Exempt">{settings.exempt.length === 0 ? "nobody" : settings.exempt.join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p class="hint">Rules and exemptions are changed through the API for now: PUT /v1/bots/@me/moderation (docs/moderation.md).</p>
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
        {(view) => <Rules view={view} />}
      </LoadState>
    </div>
  );
}
