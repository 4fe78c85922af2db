import type * as api from "@ovation/core/api";
import type { Out } from "./schema-types.js";
import type { CallOptions, HttpClient } from "./transport.js";

/** Routes of {@link eatApi}. */
export const EAT_ROUTES = {
  requestVerification: { method: "POST", path: "/api/eat/request-verification" },
  verifyCode: { method: "POST", path: "/api/eat/verify-code" },
  verify: { method: "GET", path: "/api/eat/verify" },
} as const;

/** Elevated Access Tokens: mail a one-time code, exchange it for an EAT, check one. */
export function eatApi(http: HttpClient) {
  return {
    /** `POST /api/eat/request-verification`: mails a one-time code to the account's address. */
    requestVerification: (options?: CallOptions) => http.call<Out<typeof api.eatRequestSchema>>(EAT_ROUTES.requestVerification, options),
    /** `POST /api/eat/verify-code`: exchanges the mailed code for an EAT (`token`, shown once). */
    verifyCode: (code: string, options?: CallOptions) => http.call<Out<typeof api.eatIssuedSchema>>(EAT_ROUTES.verifyCode, { ...options, body: { code } }),
    /** `GET /api/eat/verify`: checks the EAT given as `options.eat` (an {@link OvationEatRequiredError} when not valid). */
    verify: (options?: CallOptions) => http.call<Out<typeof api.eatValidSchema>>(EAT_ROUTES.verify, options),
  };
}

/** The API of {@link eatApi}. */
export type EatApi = ReturnType<typeof eatApi>;
