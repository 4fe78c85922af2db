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
import { formErrorsOf } from "../kit/form-errors.js";
import { useCopy } from "../kit/copy.js";

/** Recovery codes, shown once: a list to copy or print. */
function RecoveryCodes({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  const copyText = useCopy();
  const copy = () => copyText(codes.join("\n"), "Copied the recovery codes.");
  return (
    <div class="secret-box" role="status" aria-labelledby="recovery-heading">
      <h3 id="recovery-heading">Your recovery codes</h3>
      <p>Keep them somewhere safe. Each one signs you in once if you lose your authenticator. They are not shown again.</p>
      <ul class="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div class="toolbar">
        <button type="button" class="button primary small" onClick={() => void copy()}>
          Copy codes
        </button>
        <button type="button" class="button secondary small" onClick={onDone}>
          I saved them
        </button>
      </div>
    </div>
  );
}

type Enrolment = { secret: string; otpauth_url: string };

/** Two-step verification: turn TOTP on (secret, code, recovery codes), new recovery codes, turn it off. */
export function TwoFactorSection() {
  const client = useClient();
  const eat = useEat();
  const confirm = useConfirm();
  const toast = useToast();
  const status = useLoad(() => client.security.twoFactorStatus(), []);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [codes, setCodes] = useState<string[] | null>(null);

  const guarded = async (work: (eatToken: string) => Promise<void>) => {
    const elevated = await eat();
    if (elevated === null) return;
    try {
      await work(elevated);
    } catch (error) {
      toast("error", messageOf(error));
    }
  };

  const start = () => guarded(async (e) => setEnrolment(await client.security.startTwoFactor({ eat: e })));

  const finish = async (event: Event) => {
    event.preventDefault();
    const elevated = await eat();
    if (elevated === null) return;
    try {
      const confirmed = await client.security.confirmTwoFactor(code.trim(), { eat: elevated });
      setCodes(confirmed.recovery_codes);
      setEnrolment(null);
      setCode("");
      setErrors({});
      await status.reload();
    } catch (error) {
      setErrors(formErrorsOf(error, "code"));
    }
  };

  const renew = async () => {
    if (!(await confirm({ title: "New recovery codes?", message: "The codes you have now stop working.", confirmLabel: "Make new codes" }))) return;
    await guarded(async (e) => {
      setCodes((await client.security.regenerateRecoveryCodes({ eat: e })).recovery_codes);
      await status.reload();
    });
  };

  const turnOff = async () => {
    if (!(await confirm({ title: "Turn two-step verification off?", message: "Signing in then needs only your password. Every browser is signed out.", confirmLabel: "Turn off", danger: true }))) return;
    await guarded(async (e) => {
      await client.security.disableTwoFactor({ eat: e });
      toast("success", "Two-step verification is off.");
      await status.reload();
    });
  };

  return (
    <section class="card stack" aria-labelledby="totp-heading">
      <h2 id="totp-heading">Two-step verification</h2>
      {codes !== null ? <RecoveryCodes codes={codes} onDone={() => setCodes(null)} /> : null}
      <LoadState loaded={status} what="Two-step verification">
        {(state) =>
          state.enabled ? (
            <>
              <p>
                <span class="badge active">On</span> Signing in asks for a code from your authenticator app. {state.recovery_codes_left} recovery code
                {state.recovery_codes_left === 1 ? "" : "s"} left.
              </p>
              <div class="actions">
                <button type="button" class="button secondary" onClick={() => void renew()}>
                  New recovery codes…
                </button>
                <button type="button" class="button danger" onClick={() => void turnOff()}>
                  Turn off…
                </button>
              </div>
            </>
          ) : enrolment === null ? (
            <>
              <p>
                <span class="badge">Off</span> Add a code from an authenticator app (Aegis, 1Password, Google Authenticator…) to your password.
              </p>
              <div class="actions">
                <button type="button" class="button primary" onClick={() => void start()}>
                  Turn on…
                </button>
              </div>
            </>
          ) : (
            <form class="stack" onSubmit={(event) => void finish(event)}>
              <p>
                Add this key to your authenticator app (or open the link on the phone that has the app), then enter the 6-digit code it shows.
              </p>
              <p>
                <span class="muted">Key: </span>
                <code class="totp-secret">{enrolment.secret.replace(/(.{4})/g, "$1 ").trim()}</code>
              </p>
              <p>
                <a href={enrolment.otpauth_url}>Open in an authenticator app</a>
              </p>
              <TextField label="Code from the app" name="code" value={code} onChange={setCode} errors={errors} required input={{ autocomplete: "one-time-code", inputMode: "numeric" }} />
              <div class="actions">
                <button type="button" class="button secondary" onClick={() => setEnrolment(null)}>
                  Cancel
                </button>
                <button type="submit" class="button primary">
                  Turn on
                </button>
              </div>
            </form>
          )
        }
      </LoadState>
    </section>
  );
}
