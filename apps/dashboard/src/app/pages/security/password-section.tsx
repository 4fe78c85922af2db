import { useState } from "preact/hooks";
import { useApp } from "../../app-context.js";
import type { FieldErrors } from "../../ui/errors.js";
import { FormErrors, TextField } from "../../ui/field.js";
import { useEat } from "../../ui/eat-prompt.js";
import { useClient } from "../kit/client.js";
import { formErrorsOf } from "../kit/form-errors.js";

/**
 * Change the password: the current one, the new one twice, then the EAT prompt. The server signs
 * every session out, so the dashboard ends its own with a message and the user signs in again.
 */
export function PasswordSection() {
  const client = useClient();
  const { session } = useApp();
  const eat = useEat();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [again, setAgain] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  const change = async (event: Event) => {
    event.preventDefault();
    if (next !== again) {
      setErrors({ password_confirmation: ["The two new passwords differ."] });
      return;
    }
    const elevated = await eat();
    if (elevated === null) return;
    setBusy(true);
    try {
      await client.account.changePassword({ current_password: current, password: next }, { eat: elevated });
      setErrors({});
      try {
        session.expire("Your password was changed and every session was signed out. Sign in with the new password.");
      } catch {
        // expire() always throws to stop the caller; here the page is done.
      }
    } catch (error) {
      setErrors(formErrorsOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card stack" aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <form class="stack narrow-form" onSubmit={(event) => void change(event)}>
        <TextField label="Current password" name="current_password" type="password" value={current} onChange={setCurrent} errors={errors} required input={{ autocomplete: "current-password" }} />
        <TextField label="New password" name="password" type="password" value={next} onChange={setNext} errors={errors} required input={{ autocomplete: "new-password" }} hint="At least 10 characters; a passphrase is best." />
          <TextField label="New password again" name="password_confirmation" type="password" value={again} onChange={setAgain} errors={errors} required input={{ autocomplete: "new-password" }} />
        <FormErrors errors={errors} shown={["current_password", "password", "password_confirmation"]} />
        <div class="actions">
          <button type="submit" class="button primary" disabled={busy}>
            Change password…
          </button>
        </div>
        <p class="hint">We email you a code to confirm. Every signed-in browser is signed out afterwards.</p>
      </form>
    </section>
  );
}
