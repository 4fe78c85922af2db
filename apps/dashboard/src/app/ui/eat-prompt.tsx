import { createContext } from "preact";
import type { ComponentChildren } from "preact";
import { useCallback, useContext, useRef, useState } from "preact/hooks";
import { fieldErrorsOf, messageOf } from "./errors.js";
import type { FieldErrors } from "./errors.js";
import { TextField } from "./field.js";
import { Modal } from "./modal.js";

/** The identity calls behind the prompt (`POST /api/eat/request-verification`, `POST /api/eat/verify-code`). */
export interface EatApi {
  /** Mails a code; answers the masked address and whether it was mailed or only logged by the server. */
  request(): Promise<{ sent_to: string; delivery: "email" | "server-log" }>;
  /** Trades the code for an EAT. */
  verify(code: string): Promise<{ token: string; expires_at: string }>;
}

/** An Elevated Access Token for a sensitive call, or null when the user cancelled. */
type ElevatedAccess = () => Promise<string | null>;

const EatContext = createContext<ElevatedAccess>(async () => null);

/** Renew an EAT this long before it expires (the identity docs say about 5 minutes). */
const RENEW_MARGIN_MS = 5 * 60_000;

/**
 * An EAT for a sensitive call (`Elevated-Access-Token` header): the one this tab holds while valid,
 * else the prompt mails a code and asks for it. `const eat = await useEat()(); if (eat) ...`.
 */
export function useEat(): ElevatedAccess {
  return useContext(EatContext);
}

type Step = { name: "closed" } | { name: "sending" } | { name: "code"; sentTo: string; delivery: "email" | "server-log" } | { name: "failed"; message: string };

/** Renders the EAT prompt; pages ask for an EAT with {@link useEat}. */
export function EatProvider({ api, bridge, children }: { api: EatApi; bridge?: { ask: ElevatedAccess }; children: ComponentChildren }) {
  const [step, setStep] = useState<Step>({ name: "closed" });
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const held = useRef<{ token: string; expiresAt: number } | null>(null);
  const waiting = useRef<((token: string | null) => void) | null>(null);

  const finish = (token: string | null) => {
    waiting.current?.(token);
    waiting.current = null;
    setStep({ name: "closed" });
    setCode("");
    setErrors({});
  };

  const send = async () => {
    setStep({ name: "sending" });
    try {
      const sent = await api.request();
      setStep({ name: "code", sentTo: sent.sent_to, delivery: sent.delivery });
    } catch (error) {
      setStep({ name: "failed", message: messageOf(error) });
    }
  };

  const elevated = useCallback<ElevatedAccess>(() => {
    const current = held.current;
    if (current && current.expiresAt - RENEW_MARGIN_MS > Date.now()) return Promise.resolve(current.token);
    return new Promise<string | null>((resolve) => {
      waiting.current?.(null);
      waiting.current = resolve;
      void send();
    });
  }, []);
  // The API client asks through the bridge when a call answers "EAT required".
  if (bridge) bridge.ask = elevated;

  const verify = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    try {
      const eat = await api.verify(code.trim());
      held.current = { token: eat.token, expiresAt: Date.parse(eat.expires_at) };
      finish(eat.token);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      setErrors(Object.keys(fields).length > 0 ? fields : { code: [messageOf(error)] });
    } finally {
      setBusy(false);
    }
  };

  return (
    <EatContext.Provider value={elevated}>
      {children}
      <Modal title="Confirm it is you" open={step.name !== "closed"} onClose={() => finish(null)}>
        {step.name === "sending" ? <p role="status">Sending a code to your email address…</p> : null}
        {step.name === "failed" ? (
          <>
            <p role="alert" class="field-error">
              {step.message}
            </p>
            <div class="actions">
              <button type="button" class="button secondary" onClick={() => finish(null)}>
                Cancel
              </button>
              <button type="button" class="button primary" onClick={() => void send()}>
                Try again
              </button>
            </div>
          </>
        ) : null}
        {step.name === "code" ? (
          <form onSubmit={(event) => void verify(event)}>
            {step.delivery === "email" ? (
              <p>This change needs a fresh confirmation. We sent a 6-digit code to {step.sentTo}.</p>
            ) : (
              <p class="eat-logged">
                This change needs a fresh confirmation. No mail server is configured (OVATION_SMTP_URL), so the 6-digit code for {step.sentTo} was written to the
                server's log: look for "Your Ovation verification code" there.
              </p>
            )}
            <TextField label="Code from the email" name="code" value={code} onChange={setCode} errors={errors} required input={{ autocomplete: "one-time-code", inputMode: "numeric", autoFocus: true }} />
            <div class="actions">
              <button type="button" class="button secondary" onClick={() => void send()}>
                Send a new code
              </button>
              <button type="button" class="button secondary" onClick={() => finish(null)}>
                Cancel
              </button>
              <button type="submit" class="button primary" disabled={busy}>
                Confirm
              </button>
            </div>
          </form>
        ) : null}
      </Modal>
    </EatContext.Provider>
  );
}
