import type * as api from "@ovation/core/api";
import type { In, Out } from "./schema-types.js";
import type { CallOptions, HttpClient } from "./transport.js";

/** Routes of {@link securityApi}. */
export const SECURITY_ROUTES = {
  twoFactorStatus: { method: "GET", path: "/api/users/@me/two-factor" },
  startTwoFactor: { method: "POST", path: "/api/users/@me/two-factor" },
  confirmTwoFactor: { method: "POST", path: "/api/users/@me/two-factor/confirm" },
  disableTwoFactor: { method: "DELETE", path: "/api/users/@me/two-factor" },
  regenerateRecoveryCodes: { method: "POST", path: "/api/users/@me/two-factor/recovery-codes" },
  securityKeys: { method: "GET", path: "/api/users/@me/webauthn" },
  securityKeyOptions: { method: "POST", path: "/api/users/@me/webauthn/options" },
  registerSecurityKey: { method: "POST", path: "/api/users/@me/webauthn" },
  removeSecurityKey: { method: "DELETE", path: "/api/users/@me/webauthn/{id}" },
} as const;

/** A registered hardware key. */
export type SecurityKey = Out<typeof api.securityKeySchema>;

/** Two-step verification (TOTP) and hardware keys (WebAuthn); every change needs an EAT. */
export function securityApi(http: HttpClient) {
  return {
    /** `GET /api/users/@me/two-factor`. */
    twoFactorStatus: (options?: CallOptions) => http.call<Out<typeof api.twoFactorStatusSchema>>(SECURITY_ROUTES.twoFactorStatus, options),
    /** `POST /api/users/@me/two-factor` (EAT): the secret and `otpauth://` URL to enrol. */
    startTwoFactor: (options?: CallOptions) => http.call<Out<typeof api.totpEnrolmentSchema>>(SECURITY_ROUTES.startTwoFactor, options),
    /** `POST /api/users/@me/two-factor/confirm` (EAT): a code of the app turns TOTP on; answers the recovery codes once. */
    confirmTwoFactor: (code: string, options?: CallOptions) =>
      http.call<Out<typeof api.totpConfirmedSchema>>(SECURITY_ROUTES.confirmTwoFactor, { ...options, body: { code } satisfies In<typeof api.codeBodySchema> }),
    /** `DELETE /api/users/@me/two-factor` (EAT): turn TOTP off (signs every session out). */
    disableTwoFactor: (options?: CallOptions) => http.call<void>(SECURITY_ROUTES.disableTwoFactor, options),
    /** `POST /api/users/@me/two-factor/recovery-codes` (EAT): new recovery codes, shown once; the old ones stop working. */
    regenerateRecoveryCodes: (options?: CallOptions) => http.call<Out<typeof api.recoveryCodesSchema>>(SECURITY_ROUTES.regenerateRecoveryCodes, options),
    /** `GET /api/users/@me/webauthn`: the registered hardware keys. */
    securityKeys: (options?: CallOptions) => http.call<SecurityKey[]>(SECURITY_ROUTES.securityKeys, options),
    /** `POST /api/users/@me/webauthn/options` (EAT): options for `navigator.credentials.create` (as JSON). */
    securityKeyOptions: (options?: CallOptions) => http.call<Out<typeof api.securityKeyOptionsSchema>>(SECURITY_ROUTES.securityKeyOptions, options),
    /** `POST /api/users/@me/webauthn` (EAT): register the key with the browser's registration response (as JSON). */
    registerSecurityKey: (body: In<typeof api.securityKeyBodySchema>, options?: CallOptions) => http.call<SecurityKey>(SECURITY_ROUTES.registerSecurityKey, { ...options, body }),
    /** `DELETE /api/users/@me/webauthn/{id}` (EAT): remove a key (signs every session out). */
    removeSecurityKey: (id: string, options?: CallOptions) => http.call<void>(SECURITY_ROUTES.removeSecurityKey, { ...options, params: { id } }),
  };
}

/** The API of {@link securityApi}. */
export type SecurityApi = ReturnType<typeof securityApi>;
