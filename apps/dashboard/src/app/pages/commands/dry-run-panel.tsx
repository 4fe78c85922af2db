import type { BotCommandInput, CommandTestResult } from "@ovation/client";
import { useState } from "preact/hooks";
import type { FieldErrors } from "../../ui/errors.js";
import { CheckboxField, FormErrors, TextField } from "../../ui/field.js";
import { useClient } from "../kit/client.js";
import { formErrorsOf } from "../kit/form-errors.js";

/** Badges the panel offers: each gives its permission level. */
const BADGES = ["subscriber", "vip", "moderator", "broadcaster"] as const;

const STATUS_TEXT: Readonly<Record<string, string>> = {
  sent: "The bot answers",
  not_command: "Not a command (no ! at the start)",
  no_match: "No command matches",
  permission: "Refused: not allowed",
  disabled: "Not active now",
  cooldown: "On cooldown",
  price: "Not enough points",
  empty: "The answer is empty (nothing is sent)",
  error: "The template failed",
};

/**
 * Dry-runs a chat message as a viewer with the given name and badges: against the saved commands,
 * or against `draft()` (the editor's unsaved command) when given. The same permission, cooldown and
 * template path as real chat, without consuming anything.
 */
export function DryRunPanel({ initialMessage, draft }: { initialMessage: string; draft?: () => BotCommandInput }) {
  const client = useClient();
  const [message, setMessage] = useState(initialMessage);
  const [username, setUsername] = useState("viewer");
  const [badges, setBadges] = useState<Set<string>>(new Set());
  const [result, setResult] = useState<CommandTestResult | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  const run = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    try {
      const answer = await client.commands.test({
        message,
        event: { user: { username: username.trim() || "viewer", badges: [...badges].map((type) => ({ type, text: null, id: `${type}/1`, count: null })) } },
        ...(draft === undefined ? {} : { command: draft() }),
      });
      setResult(answer);
      setErrors({});
    } catch (error) {
      setErrors(formErrorsOf(error));
      setResult(null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card stack" aria-labelledby="dry-run-heading">
      <h2 id="dry-run-heading">Try it</h2>
      <p class="hint">
        {draft === undefined ? "Runs your saved commands on a chat message, as this viewer." : "Runs the command as it is in the form above (saved or not) on a chat message, as this viewer."} Nothing is sent to chat, no cooldown starts and no points are taken.
      </p>
      <form class="stack" onSubmit={(event) => void run(event)}>
        <div class="form-grid">
          <TextField label="Chat message" name="message" value={message} onChange={setMessage} errors={errors} required maxLength={500} input={{ autocomplete: "off" }} />
          <TextField label="Viewer name" name="event.user.username" value={username} onChange={setUsername} errors={errors} maxLength={256} input={{ autocomplete: "off" }} />
        </div>
        <fieldset>
          <legend>Viewer badges</legend>
          <div class="badge-choices">
            {BADGES.map((badge) => (
              <CheckboxField
                key={badge}
                label={badge}
                name={`badge-${badge}`}
                checked={badges.has(badge)}
                onChange={(on) =>
                  setBadges((current) => {
                    const next = new Set(current);
                    if (on) next.add(badge);
                    else next.delete(badge);
                    return next;
                  })
                }
              />
            ))}
          </div>
        </fieldset>
        <FormErrors errors={errors} shown={["message", "event.user.username"]} />
        <div class="actions">
          <button type="submit" class="button primary" disabled={busy}>
            Run
          </button>
        </div>
      </form>
      <div class="dry-run-result" aria-live="polite" data-status={result?.status ?? ""}>
        {result !== null ? (
          <dl class="facts">
            <dt>Outcome</dt>
            <dd>
              <span class={`badge${result.status === "sent" ? " active" : ""}`}>{result.status}</span> {STATUS_TEXT[result.status] ?? ""}
              {result.matched !== null ? ` (!${result.matched})` : ""}
            </dd>
            {result.text !== null ? (
              <>
                <dt>Answer{result.send_as !== null ? ` (${result.send_as})` : ""}</dt>
                <dd>
                  <output class="answer-text">{result.text === "" ? "(empty)" : result.text}</output>
                </dd>
              </>
            ) : null}
            {result.error !== null ? (
              <>
                <dt>Why</dt>
                <dd class="field-error">{result.error}</dd>
              </>
            ) : null}
          </dl>
        ) : null}
      </div>
    </section>
  );
}
