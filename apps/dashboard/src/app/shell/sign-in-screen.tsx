import { useState } from "preact/hooks";
import { useApp } from "../app-context.js";
import { messageOf } from "../ui/errors.js";

/** The signed-out screen: one button to the authorization server, and why the user is here (expired...). */
export function SignInScreen({ message, returnTo }: { message: string | null; returnTo: string }) {
  const { session } = useApp();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const signIn = async () => {
    setBusy(true);
    setError(null);
    try {
      await session.oauth.beginSignIn(returnTo);
    } catch (e) {
      setError(messageOf(e));
      setBusy(false);
    }
  };
  return (
    <main class="auth-screen" id="main">
      <div class="auth-card">
        <p class="brand-mark" aria-hidden="true">
          ◆
        </p>
        <h1>Ovation dashboard</h1>
        {message ? (
          <p class="notice" role="alert">
            {message}
          </p>
        ) : (
          <p>Sign in to set up your alerts, chat bot and browser sources.</p>
        )}
        {error ? (
          <p class="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="button" class="button primary wide" disabled={busy} onClick={() => void signIn()}>
          Sign in
        </button>
      </div>
    </main>
  );
}
