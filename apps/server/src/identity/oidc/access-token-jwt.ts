import { createPrivateKey, createPublicKey } from "node:crypto";
import type { JsonWebKey, KeyObject } from "node:crypto";
import { SignJWT, jwtVerify } from "jose";
import { sha256Hex } from "../../crypto/secrets.js";

/** The claims of an Ovation access token (what the reference's client libraries read). */
export interface AccessTokenClaims {
  /** The user id, or `""` for an app access token (client credentials), as Laravel Passport does. */
  sub: string;
  /** The client id. */
  aud: string;
  /** Hex SHA-256 of the authorization server's internal token id: the key its record is stored under. */
  jti: string;
  scopes: string[];
  /** Epoch seconds. */
  exp: number;
  iat: number;
}

/** How a JWT access token is handed to oidc-provider's introspection and revocation, which refuse JWT-shaped tokens. */
export const JWT_TOKEN_PREFIX = "jwt:";

/** Whether a bearer string has the shape of a compact JWS (three base64url parts). */
export function looksLikeJwt(value: string): boolean {
  return value.length <= 4096 && /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(value);
}

/** The public half of each signing key, as `/.well-known/jwks.json` and `/oauth/jwks` publish it. */
export function publicJwks(signingKeys: readonly JsonWebKey[]): { keys: JsonWebKey[] } {
  return {
    keys: signingKeys.map((k) => ({ ...createPublicKey({ key: k, format: "jwk" }).export({ format: "jwk" }), kid: k.kid, alg: k.alg, use: "sig" }) as JsonWebKey),
  };
}

/**
 * Access tokens as RS256 JWTs. The authorization server keeps issuing its own (opaque) tokens and
 * stores them under their SHA-256; the client receives a JWT whose `jti` is that hash, so the JWT
 * can be checked offline against the JWKS and, here, against the stored record (revocation and
 * expiry). The inner token value is never handed out, and a hash from the store is not a token:
 * only a JWT with a valid signature leads to a record.
 */
export class AccessTokenJwt {
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private readonly kid: string;

  constructor(
    signingKeys: readonly JsonWebKey[],
    private readonly issuer: string,
  ) {
    const rsa = signingKeys.find((k) => k.alg === "RS256");
    if (rsa === undefined) throw new Error("identity-keys.json has no RS256 key");
    this.privateKey = createPrivateKey({ key: rsa, format: "jwk" });
    this.publicKey = createPublicKey(this.privateKey);
    this.kid = String(rsa.kid ?? "");
  }

  /** The JWT of an issued token whose internal value is `innerValue`. */
  sign(innerValue: string, claims: Omit<AccessTokenClaims, "jti">): Promise<string> {
    return new SignJWT({ scopes: claims.scopes, scope: claims.scopes.join(" "), client_id: claims.aud })
      .setProtectedHeader({ alg: "RS256", typ: "JWT", kid: this.kid })
      .setIssuer(this.issuer)
      .setSubject(claims.sub)
      .setAudience(claims.aud)
      .setJti(sha256Hex(innerValue))
      .setIssuedAt(claims.iat)
      .setExpirationTime(claims.exp)
      .sign(this.privateKey);
  }

  /** The storage key (`jti`) of a JWT signed here, or null when the signature, issuer or shape is wrong (expiry is the record's). */
  async storageKeyOf(token: string): Promise<string | null> {
    const jwt = token.startsWith(JWT_TOKEN_PREFIX) ? token.slice(JWT_TOKEN_PREFIX.length) : token;
    if (!looksLikeJwt(jwt)) return null;
    try {
      const { payload } = await jwtVerify(jwt, this.publicKey, { algorithms: ["RS256"], issuer: this.issuer, clockTolerance: Number.MAX_SAFE_INTEGER });
      return typeof payload.jti === "string" && /^[0-9a-f]{64}$/.test(payload.jti) ? payload.jti : null;
    } catch {
      return null;
    }
  }
}
