import { useEffect, useState } from "preact/hooks";
import { useLocation } from "wouter-preact";
import { useApp } from "../app-context.js";
import { messageOf } from "../ui/errors.js";

/** `/callback`: trades the authorization code for tokens, then opens the page the user wanted. */
export function CallbackScreen() {
  const { session } = useApp();
  const [, navigate] = useLocation();
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    session.oauth.finishSignIn(new URL(window.location.href)).then(
      ({ tokens, returnTo }) => {
        if (cancelled) return;
        session.signedIn(tokens);
        navigate(returnTo, { replace: true });
      },
      (e: unknown) => {
        if (!cancelled) setError(messageOf(e));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [session, navigate]);
  return (
    <main class="auth-screen" id="main">
      <div class="auth-card">
        <h1>{error ? "Sign-in failed" : "Signing in…"}</h1>
        {error ? (
          <>
            <p class="field-error" role="alert">
              {error}
            </p>
            <button type="button" class="button primary wide" onClick={() => void session.oauth.beginSignIn("/")}>
              Sign in again
            </button>
          </>
        ) : (
          <p role="status">Finishing the sign-in.</p>
        )}
      </div>
    </main>
  );
}

/** `/signed-out`: where the authorization server sends the browser after signing out. */
export function SignedOutScreen() {
  const { session } = useApp();
  return (
    <main class="auth-screen" id="main">
      <div class="auth-card">
        <h1>Signed out</h1>
        <p role="status">You are signed out of the Ovation dashboard.</p>
        <button type="button" class="button primary wide" onClick={() => void session.oauth.beginSignIn("/")}>
          Sign in again
        </button>
      </div>
    </main>
  );
}
