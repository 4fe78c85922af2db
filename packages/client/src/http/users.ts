import type * as api from "@ovation/core/api";
import type { Out } from "./schema-types.js";
import type { CallOptions, HttpClient } from "./transport.js";

/** Routes of {@link usersApi}. */
export const USERS_ROUTES = {
  account: { method: "GET", path: "/v1/users" },
} as const;

/** The caller's account on the main API (scope `user:read`). */
export function usersApi(http: HttpClient) {
  return {
    /** `GET /v1/users`: the caller's account with its linked platforms. */
    account: (options?: CallOptions) => http.call<Out<typeof api.accountSchema>>(USERS_ROUTES.account, options),
  };
}

/** The API of {@link usersApi}. */
export type UsersApi = ReturnType<typeof usersApi>;
