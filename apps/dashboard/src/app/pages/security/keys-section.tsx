import { useState } from "preact/hooks";
import { messageOf } from "../../ui/errors.js";
import type { FieldErrors } from "../../ui/errors.js";
import { TextField } from "../../ui/field.js";
import { useConfirm } from "../../ui/confirm.js";
import { useEat } from "../../ui/eat-prompt.js";
import { useToast } from "../../ui/toast.js";
import { useClient } from "../kit/client.js";
import { LoadState } from "../kit/load-state.js";
import { useLoad } from "../kit/use-load.js";
import { createCredential, webauthnAvailable } from "./webauthn-browser.js";
import { formErrorsOf } from "../kit/form-errors.js";

/** Hardware keys and passkeys (WebAuthn): list, add (the browser talks to the key), remove. */
export function KeysSection() {
  const client = useClient();
  const eat = useEat();
  const confirm = useConfirm();
  const toast = useToast();
  const keys = useLoad(() => client.security.securityKeys(), []);
  const [name, setName] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const available = webauthnAvailable();

  const add = async (event: Event) => {
    event.preventDefault();
    if (name.trim() === "") {
      setErrors({ name: ["Give the key a name, for example “blue key”."] });
      return;
    }
    const elevated = await eat();
    if (elevated === null) return;
    try {
      const options = await client.security.securityKeyOptions({ eat: elevated });
      const response = await createCredential(options as Record<string, unknown>);
      if (response === null) {
        toast("info", "No key was added.");
        return;
      }
      const key = await client.security.registerSecurityKey({ name: name.trim(), response }, { eat: elevated });
      keys.set((list) => [...(list ?? []), key]);
      setName("");
      setErrors({});
      toast("success", `Added ${key.name}.`);
    } catch (error) {
      setErrors(formErrorsOf(error, "name"));
    }
  };

  const remove = async (id: string, keyName: string) => {
    if (!(await confirm({ title: `Remove ${keyName}?`, message: "It can no longer sign you in. Every browser is signed out.", confirmLabel: "Remove", danger: true }))) return;
    const elevated = await eat();
    if (elevated === null) return;
    try {
      await client.security.removeSecurityKey(id, { eat: elevated });
      keys.set((list) => (list ?? []).filter((k) => k.id !== id));
      toast("success", `Removed ${keyName}.`);
    } catch (error) {
      toast("error", messageOf(error));
    }
  };

  return (
    <section class="card stack" aria-labelledby="keys-heading">
      <h2 id="keys-heading">Security keys and passkeys</h2>
      <LoadState loaded={keys} what="Security keys">
        {(list) =>
          list.length === 0 ? (
            <p class="muted">No keys yet.</p>
          ) : (
            <ul class="key-list" aria-label="Your security keys">
              {list.map((key) => (
                <li key={key.id} class="key-row">
                  <span>
                    <strong>{key.name}</strong> <span class="muted">added {new Date(key.created_at).toLocaleDateString()}</span>
                  </span>
                  <button type="button" class="button secondary small" aria-label={`Remove ${key.name}`} onClick={() => void remove(key.id, key.name)}>
                    Remove…
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </LoadState>
      {available ? (
        <form class="stack" onSubmit={(event) => void add(event)}>
          <TextField label="Name of the new key" name="name" value={name} onChange={setName} errors={errors} maxLength={100} input={{ autocomplete: "off" }} />
          <div class="actions">
            <button type="submit" class="button primary">
              Add a key…
            </button>
          </div>
        </form>
      ) : (
        <p class="hint">This browser cannot register security keys.</p>
      )}
    </section>
  );
}
