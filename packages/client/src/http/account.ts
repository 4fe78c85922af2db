import type * as api from "@ovation/core/api";
import type { In, Out } from "./schema-types.js";
import type { CallOptions, HttpClient } from "./transport.js";

/** Routes of {@link accountApi}. */
export const ACCOUNT_ROUTES = {
  me: { method: "GET", path: "/api/users/@me" },
  user: { method: "GET", path: "/api/users" },
  connections: { method: "GET", path: "/api/users/@me/connections" },
  linkConnection: { method: "POST", path: "/api/users/@me/connections/{platform}/link" },
  updateEmail: { method: "POST", path: "/api/users/@me/update-email" },
  emailVerificationPage: { method: "GET", path: "/api/email/verify" },
  confirmEmail: { method: "POST", path: "/api/email/verify" },
  associatePassword: { method: "POST", path: "/api/users/@me/associate-password" },
  changePassword: { method: "POST", path: "/api/users/@me/password" },
  delete: { method: "DELETE", path: "/api/users/@me" },
} as const;

/** The current user of the identity API. */
export type Me = Out<typeof api.meSchema>;
/** A linked platform account. */
export type Connection = Out<typeof api.connectionViewSchema>;

/** The account on the identity API (`/api/users/@me...`). Calls marked EAT need an Elevated Access Token. */
export function accountApi(http: HttpClient) {
  return {
    /** `GET /api/users/@me` (scope `user:read`). */
    me: (options?: CallOptions) => http.call<Me>(ACCOUNT_ROUTES.me, options),
    /** `GET /api/users`: the same body (for clients that ask this path). */
    user: (options?: CallOptions) => http.call<Me>(ACCOUNT_ROUTES.user, options),
    /** `GET /api/users/@me/connections` (scope `connections`), optionally for one platform. */
    connections: (query: In<typeof api.connectionsQuerySchema> = {}, options?: CallOptions) =>
      http.call<Connection[]>(ACCOUNT_ROUTES.connections, { ...options, query: { platform: query.platform } }),
    /** `POST /api/users/@me/connections/{platform}/link`: the URL to open to link a platform account. */
    linkConnection: (platform: string, options?: CallOptions) => http.call<Out<typeof api.linkUrlSchema>>(ACCOUNT_ROUTES.linkConnection, { ...options, params: { platform } }),
    /** `POST /api/users/@me/update-email` (EAT when the account has an email): mails a verification link. */
    updateEmail: (body: In<typeof api.emailBodySchema>, options?: CallOptions) => http.call<Out<typeof api.emailChangeSchema>>(ACCOUNT_ROUTES.updateEmail, { ...options, body }),
    /** `GET /api/email/verify?token=`: the HTML page of the mailed link (confirms nothing by itself). */
    emailVerificationPage: (token: string, options?: CallOptions) => http.call<string>(ACCOUNT_ROUTES.emailVerificationPage, { ...options, query: { token }, as: "text" }),
    /** `POST /api/email/verify` (a form, as the page's button sends it): confirms the address; answers an HTML page. */
    confirmEmail: (token: string, options?: CallOptions) => http.call<string>(ACCOUNT_ROUTES.confirmEmail, { ...options, body: new URLSearchParams({ token }), as: "text" }),
    /** `POST /api/users/@me/associate-password` (EAT when the account has an email): a shadow account's first password. */
    associatePassword: (body: In<typeof api.passwordBodySchema>, options?: CallOptions) => http.call<Me>(ACCOUNT_ROUTES.associatePassword, { ...options, body }),
    /** `POST /api/users/@me/password` (EAT): change the password; every browser session is signed out. */
    changePassword: (body: In<typeof api.changePasswordBodySchema>, options?: CallOptions) => http.call<Out<typeof api.messageSchema>>(ACCOUNT_ROUTES.changePassword, { ...options, body }),
    /** `DELETE /api/users/@me` (EAT when the account has an email): delete the account. */
    delete: (options?: CallOptions) => http.call<void>(ACCOUNT_ROUTES.delete, options),
  };
}

/** The API of {@link accountApi}. */
export type AccountApi = ReturnType<typeof accountApi>;
