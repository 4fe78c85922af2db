import type * as api from "@ovation/core/api";
import type { In, Out } from "./schema-types.js";
import type { CallOptions, HttpClient } from "./transport.js";

/** Routes of {@link tokensApi}. */
export const TOKENS_ROUTES = {
  list: { method: "GET", path: "/api/users/@me/tokens" },
  create: { method: "POST", path: "/api/users/@me/tokens" },
  revoke: { method: "DELETE", path: "/api/users/@me/tokens/{id}" },
} as const;

/** A personal access token as listed (never its secret). */
export type PersonalAccessToken = Out<typeof api.personalAccessTokenSchema>;

/** Personal access tokens (scope `user:manage:credentials`; creating and revoking need an EAT). */
export function tokensApi(http: HttpClient) {
  return {
    /** `GET /api/users/@me/tokens`. */
    list: (options?: CallOptions) => http.call<PersonalAccessToken[]>(TOKENS_ROUTES.list, options),
    /** `POST /api/users/@me/tokens` (EAT): the answer's `token` is shown this once. */
    create: (body: In<typeof api.tokenBodySchema>, options?: CallOptions) => http.call<Out<typeof api.createdTokenSchema>>(TOKENS_ROUTES.create, { ...options, body }),
    /** `DELETE /api/users/@me/tokens/{id}` (EAT). */
    revoke: (id: number, options?: CallOptions) => http.call<void>(TOKENS_ROUTES.revoke, { ...options, params: { id } }),
  };
}

/** The API of {@link tokensApi}. */
export type TokensApi = ReturnType<typeof tokensApi>;
