import type * as api from "@ovation/core/api";
import type { In, Out } from "./schema-types.js";
import type { CallOptions, HttpClient } from "./transport.js";

/** Routes of {@link accountApi}. */
export const ACCOUNT_ROUTES = {
  me: { method: "GET", path: "/api/users/@me" },
  user: { method: "GET", path: "/api/users" },
  connections: { method: "GET", path: "/api/users/@me/connections" },
  linkConnection: { method: "POST", path: "/api/users/@me/connections/{platform}/link" },
  updateConnection: { method: "PATCH", path: "/api/users/@me/connections/{id}" },
  unlinkConnection: { method: "DELETE", path: "/api/users/@me/connections/{id}" },
  updateEmail: { method: "POST", path: "/api/users/@me/update-email" },
  emailVerificationPage: { method: "GET", path: "/api/email/verify" },
  confirmEmail: { method: "POST", path: "/api/email/verify" },
  associatePassword: { method: "POST", path: "/api/users/@me/associate-password" },
  changePassword: { method: "POST", path: "/api/users/@me/password" },
  delete: { method: "DELETE", path: "/api/users/@me" },
} as const;

/** The current user of the identity API. */
export type Me = Out<typeof api.meSchema>;
/**
 * How the bot serves a linked channel, in a streamer's words: `message` says what is going on and
 * `action` what the streamer can do about it (link again, or grant the `missing_scopes`).
 */
export type ConnectionStatus = Out<typeof api.connectionStatusSchema>;

/** A linked platform account, with whether the bot serves its channel (`bot_enabled`) and how (`status`). */
export type Connection = Out<typeof api.connectionViewSchema>;

/** Answer of {@link AccountApi.linkConnection}. */
export type LinkStart = Out<typeof api.linkUrlSchema>;

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
    /**
     * `POST /api/users/@me/connections/{platform}/link`: the URL to open to link a platform account.
     * Its page continues in a browser signed in as this account, or with `code` (show it to the
     * person who opens the URL); `return_to` is where the browser goes once linked.
     */
    linkConnection: (platform: string, body: In<typeof api.linkBodySchema> = {}, options?: CallOptions) =>
      http.call<LinkStart>(ACCOUNT_ROUTES.linkConnection, { ...options, params: { platform }, body }),
    /** `PATCH /api/users/@me/connections/{id}`: switch the bot (and alerts) on or off for one linked channel. */
    updateConnection: (id: number, body: In<typeof api.connectionPatchSchema>, options?: CallOptions) =>
      http.call<Connection>(ACCOUNT_ROUTES.updateConnection, { ...options, params: { id }, body }),
    /** `DELETE /api/users/@me/connections/{id}`: unlink a platform account (its channel stops being served, its tokens are deleted). */
    unlinkConnection: (id: number, options?: CallOptions) => http.call<void>(ACCOUNT_ROUTES.unlinkConnection, { ...options, params: { id } }),
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
