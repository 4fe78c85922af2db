import * as oauth from "oauth4webapi";
import type { DashboardBootstrap } from "../../bootstrap.js";

/** The scopes the dashboard asks for: every API scope, an ID token (for sign-out) and a refresh token. */
export const DASHBOARD_SCOPE = "openid profile email offline_access *";

/** Tokens of a signed-in dashboard tab. */
export interface TokenSet {
  access_token: string;
  refresh_token: string | null;
  id_token: string | null;
  /** Epoch ms when the access token expires. */
  expires_at: number;
  /** The user id (`sub` of the ID token). */
  subject: string;
}

/** What a sign-in in progress keeps in sessionStorage until the callback. */
interface PendingSignIn {
  state: string;
  code_verifier: string;
  return_to: string;
}

const PENDING_KEY = "ovation.dashboard.pending-sign-in";

/** The authorization server's answer was an error (`error`, `error_description`), or it could not be reached. */
export class SignInError extends Error {
  override readonly name = "SignInError";
}

/**
 * The dashboard as an OAuth public client of Ovation's authorization server: authorization code
 * with PKCE S256 and state, token refresh, revocation and RP-initiated sign-out, through
 * oauth4webapi (which checks the issuer, state, `iss` and the ID token's claims).
 */
export class DashboardOAuth {
  private server: Promise<oauth.AuthorizationServer> | null = null;
  private readonly client: oauth.Client;
  private readonly options: { [oauth.allowInsecureRequests]?: boolean };

  constructor(private readonly boot: DashboardBootstrap) {
    this.client = { client_id: boot.client_id, id_token_signed_response_alg: "ES256" };
    // http is allowed only where the host itself is served over http (a local install).
    this.options = boot.issuer.startsWith("http:") ? { [oauth.allowInsecureRequests]: true } : {};
  }

  /** The authorization server's metadata (discovery, once per page load). */
  metadata(): Promise<oauth.AuthorizationServer> {
    this.server ??= (async () => {
      const issuer = new URL(this.boot.issuer);
      const response = await oauth.discoveryRequest(issuer, { ...this.options, algorithm: "oidc" });
      return oauth.processDiscoveryResponse(issuer, response);
    })().catch((error: unknown) => {
      this.server = null;
      throw new SignInError(`The sign-in server at ${this.boot.issuer} cannot be reached (${describe(error)}).`);
    });
    return this.server;
  }

  /** Sends the browser to the authorization endpoint; `returnTo` is the dashboard path to open afterwards. */
  async beginSignIn(returnTo: string, prompt?: "login"): Promise<void> {
    const as = await this.metadata();
    const pending: PendingSignIn = { state: oauth.generateRandomState(), code_verifier: oauth.generateRandomCodeVerifier(), return_to: returnTo };
    sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
    const url = new URL(as.authorization_endpoint ?? `${this.boot.issuer}/authorize`);
    url.searchParams.set("client_id", this.boot.client_id);
    url.searchParams.set("redirect_uri", this.boot.redirect_uri);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("scope", DASHBOARD_SCOPE);
    url.searchParams.set("state", pending.state);
    url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(pending.code_verifier));
    url.searchParams.set("code_challenge_method", "S256");
    if (prompt) url.searchParams.set("prompt", prompt);
    window.location.assign(url.href);
  }

  /** Finishes a sign-in on the callback page: exchanges the code for tokens. Returns them and where to go. */
  async finishSignIn(callbackUrl: URL): Promise<{ tokens: TokenSet; returnTo: string }> {
    const raw = sessionStorage.getItem(PENDING_KEY);
    sessionStorage.removeItem(PENDING_KEY);
    if (raw === null) throw new SignInError("This sign-in was not started in this tab, or it was already finished. Sign in again.");
    const pending = JSON.parse(raw) as PendingSignIn;
    const as = await this.metadata();
    let params: URLSearchParams;
    try {
      params = oauth.validateAuthResponse(as, this.client, callbackUrl, pending.state);
    } catch (error) {
      throw new SignInError(authErrorMessage(error));
    }
    try {
      const response = await oauth.authorizationCodeGrantRequest(as, this.client, oauth.None(), params, this.boot.redirect_uri, pending.code_verifier, this.options);
      const result = await oauth.processAuthorizationCodeResponse(as, this.client, response, { requireIdToken: true });
      return { tokens: toTokenSet(result, null), returnTo: safeReturnTo(pending.return_to) };
    } catch (error) {
      throw new SignInError(authErrorMessage(error));
    }
  }

  /** New tokens from the refresh token (rotated: the old one stops working). */
  async refresh(tokens: TokenSet): Promise<TokenSet> {
    if (tokens.refresh_token === null) throw new SignInError("no refresh token");
    const as = await this.metadata();
    const response = await oauth.refreshTokenGrantRequest(as, this.client, oauth.None(), tokens.refresh_token, this.options);
    try {
      return toTokenSet(await oauth.processRefreshTokenResponse(as, this.client, response), tokens);
    } catch (error) {
      throw new SignInError(authErrorMessage(error));
    }
  }

  /** The signed-in user's name and email address (`/oauth/userinfo`). */
  async userInfo(accessToken: string, subject: string): Promise<{ name: string | null; email: string | null }> {
    const as = await this.metadata();
    const response = await oauth.userInfoRequest(as, this.client, accessToken, this.options);
    const info = await oauth.processUserInfoResponse(as, this.client, subject || oauth.skipSubjectCheck, response);
    return { name: typeof info.name === "string" ? info.name : null, email: typeof info.email === "string" ? info.email : null };
  }

  /** Revokes the refresh and access tokens (best effort: a token already gone is fine). */
  async revoke(tokens: TokenSet): Promise<void> {
    const as = await this.metadata();
    for (const token of [tokens.refresh_token, tokens.access_token]) {
      if (token === null) continue;
      try {
        await oauth.processRevocationResponse(await oauth.revocationRequest(as, this.client, oauth.None(), token, this.options));
      } catch {
        // Revocation is best effort; the tokens are forgotten by this tab either way.
      }
    }
  }

  /** Ends the authorization server's session (its own confirmation page), coming back to `/signed-out`. */
  async endSession(idToken: string | null): Promise<void> {
    const as = await this.metadata();
    if (!as.end_session_endpoint) {
      window.location.assign(`${this.boot.base_path}/signed-out`);
      return;
    }
    const url = new URL(as.end_session_endpoint);
    url.searchParams.set("client_id", this.boot.client_id);
    url.searchParams.set("post_logout_redirect_uri", this.boot.redirect_uri.replace(/\/callback$/, "/signed-out"));
    if (idToken) url.searchParams.set("id_token_hint", idToken);
    window.location.assign(url.href);
  }
}

function toTokenSet(result: oauth.TokenEndpointResponse, previous: TokenSet | null): TokenSet {
  const claims = oauth.getValidatedIdTokenClaims(result);
  return {
    access_token: result.access_token,
    refresh_token: result.refresh_token ?? previous?.refresh_token ?? null,
    id_token: result.id_token ?? previous?.id_token ?? null,
    expires_at: Date.now() + (typeof result.expires_in === "number" ? result.expires_in : 3600) * 1000,
    subject: claims?.sub ?? previous?.subject ?? "",
  };
}

/** Only a path of the dashboard itself (no other origin, no protocol-relative trick). */
function safeReturnTo(value: unknown): string {
  return typeof value === "string" && value.startsWith("/") && !value.startsWith("//") ? value : "/";
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function authErrorMessage(error: unknown): string {
  if (error instanceof oauth.AuthorizationResponseError || error instanceof oauth.ResponseBodyError) {
    if (error.error === "access_denied") return "Sign-in was cancelled.";
    return `Sign-in failed: ${error.error_description ?? error.error}.`;
  }
  return `Sign-in failed: ${describe(error)}.`;
}
