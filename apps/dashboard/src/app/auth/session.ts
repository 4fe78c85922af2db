import type { DashboardBootstrap } from "../../bootstrap.js";
import { DashboardOAuth } from "./oauth.js";
import type { TokenSet } from "./oauth.js";

const TOKENS_KEY = "ovation.dashboard.tokens";
/** Refresh this long before the access token expires. */
const REFRESH_MARGIN_MS = 60_000;

/** Where the tab stands: signed in with tokens, or signed out (with the reason to show, if any). */
export type SessionState = { status: "signed-in"; tokens: TokenSet } | { status: "signed-out"; message: string | null };

/**
 * The signed-in tab: tokens live in sessionStorage (this tab only, gone when it closes; never in
 * localStorage or a cookie), the access token is refreshed shortly before it expires when a refresh
 * token was issued, and an expired session without one goes back to sign-in with a message.
 */
export class Session {
  readonly oauth: DashboardOAuth;
  private current: SessionState;
  private readonly listeners = new Set<(state: SessionState) => void>();
  private refreshing: Promise<string> | null = null;

  constructor(readonly boot: DashboardBootstrap) {
    this.oauth = new DashboardOAuth(boot);
    const stored = readTokens();
    this.current = stored ? { status: "signed-in", tokens: stored } : { status: "signed-out", message: null };
  }

  get state(): SessionState {
    return this.current;
  }

  /** Calls `listener` on every change; returns the unsubscribe function. */
  subscribe(listener: (state: SessionState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(state: SessionState): void {
    this.current = state;
    if (state.status === "signed-in") sessionStorage.setItem(TOKENS_KEY, JSON.stringify(state.tokens));
    else sessionStorage.removeItem(TOKENS_KEY);
    for (const listener of this.listeners) listener(state);
  }

  /** Stores the tokens of a finished sign-in. */
  signedIn(tokens: TokenSet): void {
    this.set({ status: "signed-in", tokens });
  }

  /**
   * A valid access token for an API call: refreshed first when it expires within a minute. When it
   * cannot be refreshed the session ends with "Your session expired" and this rejects.
   */
  async accessToken(): Promise<string> {
    const state = this.current;
    if (state.status !== "signed-in") throw new SessionExpiredError();
    if (state.tokens.expires_at - REFRESH_MARGIN_MS > Date.now()) return state.tokens.access_token;
    return this.refresh();
  }

  /** The API said 401 to the current token: refresh once, else end the session. */
  async unauthorized(): Promise<string> {
    return this.refresh();
  }

  private refresh(): Promise<string> {
    this.refreshing ??= (async () => {
      const state = this.current;
      if (state.status !== "signed-in") throw new SessionExpiredError();
      if (state.tokens.refresh_token === null) return this.expire();
      try {
        const tokens = await this.oauth.refresh(state.tokens);
        this.set({ status: "signed-in", tokens });
        return tokens.access_token;
      } catch {
        return this.expire();
      }
    })().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** Ends the session because it expired; the sign-in page shows why. */
  expire(message = "Your session expired. Sign in again to continue."): never {
    this.set({ status: "signed-out", message });
    throw new SessionExpiredError();
  }

  /** Signs out: revokes the tokens, forgets them, and ends the authorization server's session. */
  async signOut(): Promise<void> {
    const state = this.current;
    this.set({ status: "signed-out", message: null });
    if (state.status !== "signed-in") return;
    await this.oauth.revoke(state.tokens);
    await this.oauth.endSession(state.tokens.id_token);
  }
}

/** The session ended (expired or signed out) while a call wanted a token. */
export class SessionExpiredError extends Error {
  override readonly name = "SessionExpiredError";
  constructor() {
    super("The session has ended. Sign in again.");
  }
}

function readTokens(): TokenSet | null {
  const raw = sessionStorage.getItem(TOKENS_KEY);
  if (raw === null) return null;
  try {
    const value = JSON.parse(raw) as Partial<TokenSet>;
    if (typeof value.access_token !== "string" || typeof value.expires_at !== "number") return null;
    return {
      access_token: value.access_token,
      refresh_token: typeof value.refresh_token === "string" ? value.refresh_token : null,
      id_token: typeof value.id_token === "string" ? value.id_token : null,
      expires_at: value.expires_at,
      subject: typeof value.subject === "string" ? value.subject : "",
    };
  } catch {
    return null;
  }
}
