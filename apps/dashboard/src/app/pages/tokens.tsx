import type { PersonalAccessToken } from "@ovation/client";
import { useState } from "preact/hooks";
import { messageOf } from "../ui/errors.js";
import type { FieldErrors } from "../ui/errors.js";
import { CheckboxField, FormErrors, TextField } from "../ui/field.js";
import { useConfirm } from "../ui/confirm.js";
import { useEat } from "../ui/eat-prompt.js";
import { useToast } from "../ui/toast.js";
import { useClient } from "./kit/client.js";
import { LoadState } from "./kit/load-state.js";
import { useLoad } from "./kit/use-load.js";
import { formErrorsOf } from "./kit/form-errors.js";
import { useCopy } from "./kit/copy.js";
import { TableHead } from "./kit/table-head.js";

/** The scopes a token can be given here, with what each allows. */
const SCOPES = [
  ["alerts:manage", "Trigger and configure your alerts, browser sources and the queue"],
  ["chatbot:read", "Read your chat-bot settings and counters"],
  ["chatbot:manage", "Manage your chat-bot and counters"],
  ["chatbot:manage:commands", "Create, change and delete your chat-bot commands"],
  ["chatbot:manage:timers", "Manage your chat-bot's timers"],
  ["chatbot:manage:moderation", "Manage your chat-bot's moderation"],
  ["chatbot:manage:giveaways", "Manage your chat-bot's giveaways"],
  ["chatbot:manage:queue", "Manage your chat-bot's viewer queue"],
  ["chatbot:manage:polls", "Start and end your chat-bot's polls"],
  ["chatbot:manage:shoutouts", "Give shoutouts and set them up"],
  ["chatbot:manage:points", "Manage your chat-bot's loyalty points"],
  ["chatbot:manage:quotes", "Manage your chat-bot's quotes"],
  ["widgets:manage", "Manage your widgets and goal bars"],
  ["user:read", "Read your profile"],
  ["connections", "See your linked platform accounts"],
] as const;

function CreateToken({ onCreated }: { onCreated: (token: PersonalAccessToken) => void }) {
  const client = useClient();
  const eat = useEat();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Set<string>>(new Set(["alerts:manage"]));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [secret, setSecret] = useState<string | null>(null);

  const create = async (event: Event) => {
    event.preventDefault();
    const elevated = await eat();
    if (elevated === null) return;
    try {
      const created = await client.tokens.create({ name: name.trim(), scopes: [...scopes] }, { eat: elevated });
      setSecret(created.token);
      setErrors({});
      setName("");
      onCreated(created);
    } catch (error) {
      setErrors(formErrorsOf(error));
    }
  };

  const copyText = useCopy();
  const copy = () => (secret === null ? Promise.resolve() : copyText(secret, "Copied the token."));

  return (
    <form class="card stack" aria-labelledby="new-token-heading" onSubmit={(event) => void create(event)}>
      <h2 id="new-token-heading">New token</h2>
      {secret !== null ? (
        <div class="secret-box" role="status">
          <p>
            <strong>Copy this token now.</strong> It is shown this once; Ovation keeps only its hash.
          </p>
          <label class="visually-hidden" for="new-token-secret">
            The new token
          </label>
          <input id="new-token-secret" type="text" readOnly value={secret} class="code" />
          <div class="toolbar">
            <button type="button" class="button primary small" onClick={() => void copy()}>
              Copy token
            </button>
            <button type="button" class="button secondary small" onClick={() => setSecret(null)}>
              Done
            </button>
          </div>
        </div>
      ) : null}
      <TextField label="Name" name="name" value={name} onChange={setName} errors={errors} required maxLength={255} hint="What uses it: a stream deck, a script, a bot…" input={{ autocomplete: "off" }} />
      <fieldset>
        <legend>What it may do</legend>
        <div class="scope-choices">
          {SCOPES.map(([scope, what]) => (
            <CheckboxField
              key={scope}
              label={`${scope}: ${what}`}
              name={`scope-${scope}`}
              checked={scopes.has(scope)}
              onChange={(on) =>
                setScopes((current) => {
                  const next = new Set(current);
                  if (on) next.add(scope);
                  else next.delete(scope);
                  return next;
                })
              }
            />
          ))}
        </div>
        {errors["scopes"] ? <p class="field-error">{errors["scopes"].join(" ")}</p> : null}
      </fieldset>
      <FormErrors errors={errors} shown={["name", "scopes"]} />
      <div class="actions">
        <button type="submit" class="button primary" disabled={scopes.size === 0}>
          Create token…
        </button>
      </div>
      <p class="hint">Creating a token asks for a code we email you.</p>
    </form>
  );
}

/** Personal access tokens: list, create (behind the EAT prompt, secret shown once), revoke. */
export default function Tokens() {
  const client = useClient();
  const eat = useEat();
  const confirm = useConfirm();
  const toast = useToast();
  const loaded = useLoad(() => client.tokens.list(), []);

  const revoke = async (token: PersonalAccessToken) => {
    if (!(await confirm({ title: `Revoke "${token.name}"?`, message: "Whatever uses it stops working at once.", confirmLabel: "Revoke", danger: true }))) return;
    const elevated = await eat();
    if (elevated === null) return;
    try {
      await client.tokens.revoke(token.id, { eat: elevated });
      loaded.set((list) => (list ?? []).filter((t) => t.id !== token.id));
      toast("success", `Revoked "${token.name}".`);
    } catch (error) {
      toast("error", messageOf(error));
    }
  };

  return (
    <div class="stack">
      <p class="lead">Personal access tokens let scripts and tools use the API as you. Give each one only what it needs.</p>
      <LoadState loaded={loaded} what="Tokens">
        {(tokens) => {
          const live = tokens.filter((t) => t.revoked_at === null);
          return live.length === 0 ? (
            <p class="card muted">No personal access tokens.</p>
          ) : (
            <div class="table-wrap">
              <table class="data data-table">
                <caption class="visually-hidden">Your personal access tokens</caption>
                <TableHead columns={["Name", "Scopes", "Expires"]} />
                <tbody>
                  {live.map((token) => (
                    <tr key={token.id} data-token={token.id}>
                      <th scope="row">{token.name}</th>
                      <td data-label="Scopes">{token.scopes.join(", ")}</td>
                      <td data-label="Expires">{new Date(token.expires_at).toLocaleDateString()}</td>
                      <td class="row-actions">
                        <button type="button" class="button secondary small" aria-label={`Revoke ${token.name}`} onClick={() => void revoke(token)}>
                          Revoke…
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          );
        }}
      </LoadState>
      <CreateToken onCreated={(token) => loaded.set((list) => [...(list ?? []), token])} />
    </div>
  );
}
