import Provider, { errors } from "oidc-provider";
import type { Configuration, KoaContextWithOIDC } from "oidc-provider";
import type { Logger } from "pino";
import type { OidcArtifactStorage } from "../../store/oidc-artifact-storage.js";
import type { UsersRepository } from "../../store/users.js";
import type { ClientRegistry } from "../clients.js";
import type { Clock } from "../clock.js";
import type { IdentityLifetimes } from "../identity-env.js";
import type { IdentityKeys } from "../keys.js";
import { escapeHtml } from "../pages/html.js";
import { PAGE_SECURITY_HEADERS, renderPage } from "../pages/layout.js";
import { renderLoggedOut, renderLogout, renderStillSignedIn } from "../pages/logout.js";
import { ALL_SCOPE_VALUES, AUTHORIZE_SCOPES, OIDC_SCOPES } from "../scope-descriptions.js";
import { constantTimeEqual, sha256Hex } from "../../crypto/secrets.js";
import { SESSION_COOKIE, readCookie } from "../session.js";
import type { SessionService } from "../session.js";
import { AccessTokenJwt } from "./access-token-jwt.js";
import { OidcAdapter } from "./adapter.js";

/** Where the authorization server's endpoints live below the issuer (`<id host>/oauth`). */
export const OAUTH_ROUTES = Object.freeze({
  authorization: "/authorize",
  token: "/token",
  revocation: "/revoke",
  introspection: "/introspect",
  userinfo: "/userinfo",
  jwks: "/jwks",
  end_session: "/logout",
});

/** The resource indicator of the Ovation APIs: every access token is issued for it. */
export function apiResource(idBase: string): string {
  return `${idBase}/api`;
}

/** What the authorization server needs from the rest of the identity module. */
export interface ProviderDeps {
  /** The identity host, without a trailing slash; the issuer is `<idBase>/oauth`. */
  idBase: string;
  /** Cookie and ID-token signing keys (`identity-keys.json`). */
  keys: IdentityKeys;
  clients: ClientRegistry;
  users: UsersRepository;
  lifetimes: Readonly<IdentityLifetimes>;
  clock: Clock;
  logger: Logger;
  sessions: SessionService;
  /** Trust `X-Forwarded-Proto`/`-For` (behind a TLS-offloading proxy). */
  trustProxy: boolean;
  /** Where oidc-provider artifacts live (the identity file, or the host's PostgreSQL); clients come from `clients`. */
  oidcStorage: OidcArtifactStorage;
  /** Called once a grant's tokens are revoked (`/oauth/revoke` of its access or refresh token). */
  onGrantRevoked?: ((grantId: string) => void) | undefined;
}

/**
 * Builds the oidc-provider instance: authorization code (+ PKCE S256 for public clients), refresh
 * token, client credentials, opaque access tokens for the Ovation API resource, revocation and
 * introspection, storage in the identity lowdb file, our own sign-in and consent pages.
 */
export function createOAuthProvider(deps: ProviderDeps): Provider {
  const { users, lifetimes, clock } = deps;
  const resource = apiResource(deps.idBase);
  // openid/profile/email are resource scopes too, so the access token lists them and can call userinfo.
  const scopeValues = [...ALL_SCOPE_VALUES, "openid", "profile", "email"].join(" ");
  // The adapter resolves a JWT access token to its record (storageKey), whatever the storage.
  const jwt = new AccessTokenJwt(deps.keys.signing_keys, `${deps.idBase}/oauth`);

  const configuration: Configuration = {
    adapter: (name: string) => new OidcAdapter(name, deps.oidcStorage, clock, deps.clients, jwt, deps.onGrantRevoked),
    jwks: { keys: deps.keys.signing_keys as NonNullable<Configuration["jwks"]>["keys"] },
    cookies: {
      keys: deps.keys.cookie_keys,
      long: { httpOnly: true, sameSite: "lax", signed: true },
      short: { httpOnly: true, sameSite: "lax", signed: true },
      names: { session: "_ovation_oidc_session", interaction: "_ovation_interaction", resume: "_ovation_interaction_resume" },
    },
    routes: OAUTH_ROUTES,
    clientDefaults: { grant_types: ["authorization_code"], response_types: ["code"], token_endpoint_auth_method: "client_secret_basic", id_token_signed_response_alg: "ES256" },
    scopes: [...OIDC_SCOPES, ...ALL_SCOPE_VALUES],
    // Not a parameter clients send: its validator runs after the redirect URI is checked, so an
    // unknown scope goes back to the client as `invalid_scope` (oidc-provider would drop it silently).
    extraParams: {
      ovation_scope_check: (ctx) => {
        const params = ctx.oidc.params ?? {};
        const requested = String(params.scope ?? "").split(" ").filter((s) => s.length > 0);
        const unknown = requested.filter((s) => !AUTHORIZE_SCOPES.has(s));
        if (unknown.length > 0) throw new errors.InvalidScope(`unknown scope: ${unknown.join(" ")}`, unknown.join(" "));
        // `scope=""` (the reference's PKCE example) asks for no API scope. oidc-provider denies a
        // request that grants nothing, so it becomes `openid`: the token names its user, nothing more.
        if (requested.length === 0) params.scope = "openid";
      },
    },
    claims: { openid: ["sub"], profile: ["name", "picture"], email: ["email", "email_verified"] },
    async findAccount(_ctx, sub) {
      const id = Number(sub);
      const user = Number.isSafeInteger(id) ? users.get(id) : null;
      if (!user) return undefined;
      return {
        accountId: String(user.id),
        async claims() {
          return { sub: String(user.id), name: user.name, picture: user.avatar ?? undefined, email: user.email ?? undefined, email_verified: user.email_verified_at !== null };
        },
      };
    },
    features: {
      devInteractions: { enabled: false },
      introspection: {
        enabled: true,
        // A confidential client may introspect any token; a public one only its own.
        allowedPolicy: async (ctx, client, token) => client.clientAuthMethod !== "none" || token.clientId === ctx.oidc.client?.clientId,
      },
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      clientCredentials: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.type = "html";
          ctx.body = renderLogout(form);
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.type = "html";
          const stillSignedIn = deps.sessions.userOfCookieHeader(ctx.get("cookie")) !== null;
          ctx.body = stillSignedIn ? renderStillSignedIn() : renderLoggedOut();
        },
      },
      userinfo: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => resource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget(`the only resource is ${resource}`);
          return { scope: scopeValues, accessTokenFormat: "opaque", accessTokenTTL: lifetimes.accessToken };
        },
      },
    },
    pkce: { required: (_ctx, client) => client.clientAuthMethod === "none" },
    clientBasedCORS: (_ctx, origin, client) => (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin),
    ttl: {
      AccessToken: () => lifetimes.accessToken,
      ClientCredentials: () => lifetimes.accessToken,
      RefreshToken: () => lifetimes.refreshToken,
      AuthorizationCode: () => 60,
      Grant: () => lifetimes.refreshToken,
      Interaction: () => 3600,
      Session: () => lifetimes.session,
      IdToken: () => 3600,
    },
    // A first-party client (the dashboard) gets what it asks for without a consent page.
    loadExistingGrant: async (ctx) => {
      const { client, session } = ctx.oidc;
      if (!client || !session) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId || session.grantIdFor(client.clientId);
      const existing = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      if (existing || !deps.clients.isBuiltIn(client.clientId) || !session.accountId) return existing;
      return firstPartyGrant(ctx, resource, scopeValues);
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: () => true,
    expiresWithSession: async () => false,
    interactions: { url: (_ctx, interaction) => `/oauth/interaction/${interaction.uid}` },
    renderError: async (ctx: KoaContextWithOIDC, out) => {
      ctx.type = "html";
      // Like the reference, a bad client or redirect URI reads "Client authentication failed".
      const clientProblem = out.error === "invalid_client" || out.error === "invalid_redirect_uri";
      ctx.body = renderPage({
        title: "Sign-in problem",
        body: `<h1>${clientProblem ? "Client authentication failed" : "Something went wrong"}</h1><p role="alert">${escapeHtml(String(out.error_description ?? out.error))}</p><p><code>${escapeHtml(String(out.error))}</code></p>`,
      });
    },
  };

  const provider = new Provider(`${deps.idBase}/oauth`, configuration);
  provider.proxy = deps.trustProxy;
  // Client secrets are stored as SHA-256 only; compare the presented secret's hash in constant time.
  provider.Client.prototype.compareClientSecret = async function compareClientSecret(this: { clientSecret?: string }, actual: string): Promise<boolean> {
    return typeof this.clientSecret === "string" && constantTimeEqual(sha256Hex(actual), this.clientSecret);
  };
  provider.use(async (ctx, next) => {
    // Set before the response is built: oidc-provider adds the hash of its one inline script (the
    // auto-submitted form of a sign-out without a session) to this policy's script-src.
    ctx.set({ ...PAGE_SECURITY_HEADERS });
    await next();
    if (!ctx.response.is("html")) for (const name of Object.keys(PAGE_SECURITY_HEADERS)) ctx.remove(name);
    if (ctx.path === OAUTH_ROUTES.token && ctx.status === 200) await wrapAccessToken(provider, jwt, ctx);
  });
  // Signing out of the authorization server also ends the identity session cookie; "No, stay
  // signed in" (no `logout` field) keeps both.
  provider.on("end_session.success", (ctx: KoaContextWithOIDC) => {
    if (!ctx.oidc.params?.logout) return;
    const raw = readCookie(ctx.get("cookie"), SESSION_COOKIE);
    if (raw !== undefined) {
      ctx.append("Set-Cookie", deps.sessions.clearCookie());
      void deps.sessions.destroy(raw);
    }
  });
  provider.on("server_error", (_ctx, error) => deps.logger.error({ err: error }, "oauth server error"));
  return provider;
}

/** A saved grant of every scope a first-party client requested (OIDC scopes and API resource scopes). */
async function firstPartyGrant(ctx: KoaContextWithOIDC, resource: string, resourceScopes: string): Promise<InstanceType<Provider["Grant"]>> {
  const requested = String(ctx.oidc.params?.scope ?? "").split(" ").filter((s) => s.length > 0);
  // oidc-provider counts every configured scope (OIDC and API ones) as an "OIDC scope" of the grant.
  const apiScopes = new Set(resourceScopes.split(" "));
  const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client?.clientId, accountId: ctx.oidc.session?.accountId });
  grant.addOIDCScope(requested.filter((s) => AUTHORIZE_SCOPES.has(s)).join(" ") || "openid");
  const forApi = requested.filter((s) => apiScopes.has(s));
  if (forApi.length > 0) grant.addResourceScope(resource, forApi.join(" "));
  await grant.save();
  return grant;
}

/** Replaces the opaque access token of a token response by its RS256 JWT (access-token-jwt.ts). */
async function wrapAccessToken(provider: Provider, jwt: AccessTokenJwt, ctx: { body: unknown }): Promise<void> {
  const body = ctx.body as Record<string, unknown> | undefined;
  const inner = body?.access_token;
  if (typeof inner !== "string" || inner.includes(".")) return;
  const token = (await provider.AccessToken.find(inner)) ?? (await provider.ClientCredentials.find(inner));
  if (!token || token.exp === undefined || token.iat === undefined || token.clientId === undefined) return;
  const accountId = "accountId" in token && typeof token.accountId === "string" ? token.accountId : "";
  const scopes = (token.scope ?? "").split(" ").filter((s) => s.length > 0);
  ctx.body = { ...body, access_token: await jwt.sign(inner, { sub: accountId, aud: token.clientId, scopes, exp: token.exp, iat: token.iat }) };
}
