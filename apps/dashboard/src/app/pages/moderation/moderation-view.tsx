import type { ModerationView } from "@ovation/client";
import { useState } from "preact/hooks";
import { messageOf } from "../../ui/errors.js";
import type { FieldErrors } from "../../ui/errors.js";
import { FormErrors, NumberField, TextAreaField, TextField } from "../../ui/field.js";
import { formErrorsOf } from "../kit/form-errors.js";
import { useToast } from "../../ui/toast.js";
import { useClient } from "../kit/client.js";
import { LoadState } from "../kit/load-state.js";
import { useLoad } from "../kit/use-load.js";
import { LIMIT_BOUNDS } from "./bounds.js";
import type { WholeNumberRange } from "./bounds.js";

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
      <p class="hint">Lengths, percentages, timeouts and toxicity scores: under “Limits” below.</p>
    </section>
  );
}

/** The lists the page edits, each a field of the settings: one entry per line. */
const LISTS = [
  { field: "bad_words.words", label: "Bad words and phrases", hint: "One word or phrase per line, matched however it is written (case, accents, look-alike letters). At most 1000, each up to 64 characters.", rows: 6 },
  { field: "bad_words.patterns", label: "Bad-word patterns", hint: "One RE2 pattern per line, matched against the message as written (no backreferences or lookaround). At most 50, each up to 200 characters.", rows: 4 },
  { field: "links.allowed_domains", label: "Allowed link domains", hint: "One domain per line, written like example.com (it covers its subdomains). At most 200.", rows: 4 },
] as const;

type ListField = (typeof LISTS)[number]["field"];

function listOf(settings: ModerationView["settings"], field: ListField): readonly string[] {
  return field === "bad_words.words" ? settings.bad_words.words : field === "bad_words.patterns" ? settings.bad_words.patterns : settings.links.allowed_domains;
}

/** The entries of a textarea (blank lines dropped; a pattern keeps its spaces) and the line each came from. */
function entriesOf(text: string, field: ListField): { values: string[]; lines: number[] } {
  const values: string[] = [];
  const lines: number[] = [];
  text.split("\n").forEach((raw, index) => {
    const value = field === "bad_words.patterns" ? raw.replace(/\r$/, "") : raw.trim();
    if (value.trim() === "") return;
    values.push(value);
    lines.push(index + 1);
  });
  return { values, lines };
}

/**
 * The server's errors of one list, shown under its field: an error about one entry
 * (`bad_words.patterns.3`) names the line it is on, so a bad pattern is found at once.
 */
function listErrors(errors: FieldErrors, field: ListField, lines: readonly number[]): string[] {
  const out: string[] = [];
  for (const [key, messages] of Object.entries(errors)) {
    if (key !== field && !key.startsWith(`${field}.`)) continue;
    const index = key === field ? null : Number(key.slice(field.length + 1));
    const line = index === null || !Number.isInteger(index) ? null : lines[index];
    for (const message of messages) out.push(line === undefined || line === null ? message : `Line ${line}: ${message}`);
  }
  return out;
}

/**
 * The word lists, patterns and allowed domains, edited as text and saved together with the rest of
 * the settings. A refusal (a pattern RE2 cannot compile, one over the limits, a malformed domain)
 * keeps what was typed and shows the server's error under the field, by line.
 */
function WordLists({ view, onSaved }: { view: ModerationView; onSaved: (view: ModerationView) => void }) {
  const client = useClient();
  const toast = useToast();
  const [texts, setTexts] = useState<Record<ListField, string>>(() => Object.fromEntries(LISTS.map((list) => [list.field, listOf(view.settings, list.field).join("\n")])) as Record<ListField, string>);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const parsed = Object.fromEntries(LISTS.map((list) => [list.field, entriesOf(texts[list.field], list.field)])) as Record<ListField, { values: string[]; lines: number[] }>;
  const save = async (event: Event) => {
    event.preventDefault();
    const settings = {
      ...view.settings,
      bad_words: { ...view.settings.bad_words, words: parsed["bad_words.words"].values, patterns: parsed["bad_words.patterns"].values },
      links: { ...view.settings.links, allowed_domains: parsed["links.allowed_domains"].values },
    };
    setBusy(true);
    try {
      const saved = await client.moderation.replace(settings);
      onSaved(saved);
      setErrors({});
      setTexts(Object.fromEntries(LISTS.map((list) => [list.field, listOf(saved.settings, list.field).join("\n")])) as Record<ListField, string>);
      toast("success", "Saved the word lists.");
    } catch (error) {
      setErrors(formErrorsOf(error));
    } finally {
      setBusy(false);
    }
  };
  const shownErrors: FieldErrors = Object.fromEntries(LISTS.map((list) => [list.field, listErrors(errors, list.field, parsed[list.field].lines)]));
  const other = Object.fromEntries(Object.entries(errors).filter(([key]) => !LISTS.some((list) => key === list.field || key.startsWith(`${list.field}.`))));
  return (
    <form class="card stack" aria-labelledby="word-lists-heading" onSubmit={(event) => void save(event)}>
      <h2 id="word-lists-heading">Word lists</h2>
      <p class="hint">The bad-word rule removes messages holding a word, phrase or pattern of these lists; the links rule spares the allowed domains. Switch the rules on in the table above.</p>
      {LISTS.map((list) => (
        <TextAreaField
          key={list.field}
          label={list.label}
          name={list.field}
          value={texts[list.field]}
          onChange={(value) => setTexts((current) => ({ ...current, [list.field]: value }))}
          errors={shownErrors}
          hint={list.hint}
          rows={list.rows}
          spellcheck={false}
        />
      ))}
      <FormErrors errors={other} />
      <div class="actions">
        <button type="submit" class="button primary" disabled={busy}>
          Save word lists
        </button>
      </div>
    </form>
  );
}

/** One numeric setting: its path in the settings (the server's error key too), label, range and hint. */
interface NumberSetting {
  path: string;
  label: string;
  range: WholeNumberRange;
  hint: string;
  /** Empty leaves it out (`null`): the toxicity scores. */
  optional?: boolean;
}

const B = LIMIT_BOUNDS;
const within = (range: WholeNumberRange) => `${range.min.toLocaleString("en")} to ${range.max.toLocaleString("en")}`;

/** The numeric settings of each rule, in the order of the rules table; a rule's timeout length shows while its action is a timeout. */
function numberSettings(settings: ModerationView["settings"]): Array<{ rule: string; fields: NumberSetting[] }> {
  const timeout = (rule: "caps" | "symbols" | "links" | "bad_words" | "length"): NumberSetting[] =>
    settings[rule].action.type === "timeout" ? [{ path: `${rule}.action.seconds`, label: "Timeout (seconds)", range: B.timeoutSeconds, hint: `${within(B.timeoutSeconds)} (two weeks).` }] : [];
  const share = (rule: "caps" | "symbols", what: string): NumberSetting[] => [
    { path: `${rule}.min_length`, label: "Shortest message checked (characters)", range: B.minLength, hint: `${within(B.minLength)}: shorter messages are left alone.` },
    { path: `${rule}.max_percent`, label: `Most ${what} (%)`, range: B.percent, hint: `${within(B.percent)}: a message with more breaks the rule.` },
  ];
  const score = (action: string): NumberSetting => ({
    path: `toxicity.thresholds.${action}`,
    label: `${action[0]?.toUpperCase() ?? ""}${action.slice(1)} from score (%)`,
    range: B.toxicityThreshold,
    hint: `${within(B.toxicityThreshold)}; empty: never ${action}.`,
    optional: true,
  });
  return [
    { rule: "caps", fields: [...share("caps", "capital letters"), ...timeout("caps")] },
    { rule: "symbols", fields: [...share("symbols", "symbols"), ...timeout("symbols")] },
    { rule: "links", fields: timeout("links") },
    { rule: "bad_words", fields: timeout("bad_words") },
    { rule: "length", fields: [{ path: "length.max_length", label: "Longest message allowed (characters)", range: B.maxLength, hint: `${within(B.maxLength)}.` }, ...timeout("length")] },
    {
      rule: "toxicity",
      fields: [
        ...["warn", "delete", "timeout", "ban"].map(score),
        { path: "toxicity.timeout_seconds", label: "Timeout (seconds)", range: B.timeoutSeconds, hint: `${within(B.timeoutSeconds)}: how long a timeout by score lasts.` },
      ],
    },
  ];
}

function valueAt(settings: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((node, key) => (node !== null && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined), settings);
}

function withValue<T>(settings: T, path: string, value: unknown): T {
  const [key = "", ...rest] = path.split(".");
  const node = (settings ?? {}) as Record<string, unknown>;
  return { ...node, [key]: rest.length === 0 ? value : withValue(node[key], rest.join("."), value) } as T;
}

/** What is wrong with a value before it is sent (the server checks the same bounds), or null. */
function problemOf(field: NumberSetting, value: number | null): string | null {
  if (value === null) return field.optional ? null : "Enter a number.";
  if (!Number.isInteger(value) || value < field.range.min || value > field.range.max) return `Must be a whole number from ${within(field.range)}.`;
  return null;
}

/**
 * The numeric settings: lengths, percentages, timeouts, toxicity scores. Each is checked here
 * first (a whole number in its range: the message shows under the field and nothing is sent), then
 * saved with the rest of the settings; the server's refusal is shown under the field it names.
 */
function Limits({ view, onSaved }: { view: ModerationView; onSaved: (view: ModerationView) => void }) {
  const client = useClient();
  const toast = useToast();
  // Only what was typed since the last save: every other field shows the saved value.
  const [edits, setEdits] = useState<Readonly<Record<string, number | null>>>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const groups = numberSettings(view.settings);
  const fields = groups.flatMap((group) => group.fields);
  const current = (path: string) => (path in edits ? (edits[path] ?? null) : ((valueAt(view.settings, path) as number | null | undefined) ?? null));

  const save = async (event: Event) => {
    event.preventDefault();
    const problems: Record<string, string[]> = {};
    for (const field of fields) {
      const problem = problemOf(field, current(field.path));
      if (problem !== null) problems[field.path] = [problem];
    }
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    const settings = Object.entries(edits).reduce((next, [path, value]) => withValue(next, path, value), view.settings);
    setBusy(true);
    try {
      onSaved(await client.moderation.replace(settings));
      setEdits({});
      toast("success", "Saved the limits.");
    } catch (error) {
      setErrors(formErrorsOf(error));
    } finally {
      setBusy(false);
    }
  };
  const shown = fields.map((field) => field.path);
  return (
    <form class="card stack" aria-labelledby="limits-heading" noValidate onSubmit={(event) => void save(event)}>
      <h2 id="limits-heading">Limits</h2>
      {groups
        .filter((group) => group.fields.length > 0)
        .map((group) => (
          <fieldset key={group.rule} class="rule-limits" data-rule-limits={group.rule}>
            <legend>{RULE_NAMES[group.rule] ?? group.rule}</legend>
            <div class="form-grid">
              {group.fields.map((field) => (
                <NumberField
                  key={field.path}
                  label={field.label}
                  name={field.path}
                  value={current(field.path)}
                  min={field.range.min}
                  max={field.range.max}
                  step={1}
                  hint={field.hint}
                  errors={errors}
                  onChange={(value) => setEdits((before) => ({ ...before, [field.path]: value }))}
                />
              ))}
            </div>
          </fieldset>
        ))}
      <FormErrors errors={errors} shown={shown} />
      <div class="actions">
        <button type="submit" class="button primary" disabled={busy}>
          Save limits
        </button>
        <button type="button" class="button secondary" disabled={busy || Object.keys(edits).length === 0} onClick={() => {
            setEdits({});
            setErrors({});
          }}>
          Undo changes
        </button>
      </div>
    </form>
  );
}

/** Auto-moderation: the rules, their exemptions, actions and limits, the word lists, and a message tried against them. */
export default function Moderation() {
  const client = useClient();
  const loaded = useLoad(() => client.moderation.get(), []);
  return (
    <div class="stack">
      <p class="lead">What the bot does about messages that break your rules, who is exempt, and which rule a message would break.</p>
      <TestMessage />
      <LoadState loaded={loaded} what="Auto-moderation">
        {(view) => (
          <>
            <Rules view={view} onSaved={(saved) => loaded.set(() => saved)} />
            <Limits view={view} onSaved={(saved) => loaded.set(() => saved)} />
            <WordLists view={view} onSaved={(saved) => loaded.set(() => saved)} />
          </>
        )}
      </LoadState>
    </div>
  );
}
