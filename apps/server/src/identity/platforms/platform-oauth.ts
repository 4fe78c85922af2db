import { createHash } from "node:crypto";
import { IdentityError } from "../identity-errors.js";
import type { PlatformOAuthSettings, PlatformProfile } from "./settings.js";

/** The authorization URL the browser is sent to. */
export function authorizationUrl(settings: PlatformOAuthSettings, input: { redirectUri: string; state: string; codeVerifier: string }): string {
  const url = new URL(settings.authorizeUrl);
  url.searchParams.set(settings.clientIdParam, settings.clientId);
  url.searchParams.set("redirect_uri", input.redirectUri);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", settings.scopes.join(settings.platform === "tiktok" ? "," : " "));
  url.searchParams.set("state", input.state);
  for (const [key, value] of Object.entries(settings.authorizeParams ?? {})) url.searchParams.set(key, value);
  if (settings.pkce) {
    url.searchParams.set("code_challenge", createHash("sha256").update(input.codeVerifier).digest("base64url"));
    url.searchParams.set("code_challenge_method", "S256");
  }
  return url.href;
}

async function readJson(response: Response, what: string): Promise<unknown> {
  const text = await response.text();
  if (!response.ok) throw new IdentityError("OVATION_ERR_IDENTITY_PLATFORM_FAILED", { message: `The platform refused the ${what} (HTTP ${response.status}).` });
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new IdentityError("OVATION_ERR_IDENTITY_PLATFORM_FAILED", { message: `The platform's ${what} answer is not JSON.` });
  }
}

/**
 * The generic OAuth 2.0 client of platform login and linking: exchanges the code (with PKCE when the
 * platform uses it) and reads the platform user.
 */
export async function fetchPlatformProfile(
  settings: PlatformOAuthSettings,
  input: { code: string; redirectUri: string; codeVerifier: string },
): Promise<PlatformProfile> {
  const form = new URLSearchParams({
    grant_type: "authorization_code",
    code: input.code,
    redirect_uri: input.redirectUri,
    [settings.clientIdParam]: settings.clientId,
    client_secret: settings.clientSecret,
  });
  if (settings.pkce) form.set("code_verifier", input.codeVerifier);
  const tokenResponse = await fetch(settings.tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: form,
    signal: AbortSignal.timeout(10_000),
  });
  type TokenFields = { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown; scope?: unknown };
  const tokenJson = (await readJson(tokenResponse, "code exchange")) as TokenFields & { data?: TokenFields };
  const fields: TokenFields = typeof tokenJson.access_token === "string" ? tokenJson : (tokenJson.data ?? {});
  const accessToken = fields.access_token;
  if (typeof accessToken !== "string" || accessToken.length === 0) {
    throw new IdentityError("OVATION_ERR_IDENTITY_PLATFORM_FAILED", { message: "The platform answered the code exchange without an access token." });
  }
  const userResponse = await fetch(settings.userInfoUrl, {
    headers: { authorization: `Bearer ${accessToken}`, accept: "application/json", ...settings.userInfoHeaders(accessToken) },
    signal: AbortSignal.timeout(10_000),
  });
  const profile = settings.readProfile(await readJson(userResponse, "user lookup"));
  if (profile === null) throw new IdentityError("OVATION_ERR_IDENTITY_PLATFORM_FAILED", { message: "The platform did not say who the user is." });
  const scope = fields.scope;
  return {
    ...profile,
    tokens: {
      access_token: accessToken,
      refresh_token: typeof fields.refresh_token === "string" && fields.refresh_token !== "" ? fields.refresh_token : null,
      expires_at: typeof fields.expires_in === "number" && fields.expires_in > 0 ? Date.now() + fields.expires_in * 1000 : 0,
      scopes: typeof scope === "string" ? scope.split(/[\s,]+/).filter((s) => s !== "") : Array.isArray(scope) ? scope.filter((s): s is string => typeof s === "string") : [],
    },
  };
}
