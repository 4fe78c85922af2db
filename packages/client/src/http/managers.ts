import type * as api from "@ovation/core/api";
import type { In, Out } from "./schema-types.js";
import type { CallOptions, HttpClient } from "./transport.js";

/** Routes of {@link managersApi}. */
export const MANAGERS_ROUTES = {
  list: { method: "GET", path: "/v1/managers" },
  grant: { method: "POST", path: "/v1/managers" },
  revoke: { method: "DELETE", path: "/v1/managers/{user}" },
  audit: { method: "GET", path: "/v1/managers/audit" },
  channels: { method: "GET", path: "/v1/managed-channels" },
} as const;

/** A manager of the caller's channel. */
export type Manager = Out<typeof api.managerViewSchema>;
/** A channel the caller manages: pass its `user_id` as `user` to the bot families' calls. */
export type ManagedChannel = Out<typeof api.managedChannelSchema>;
/** One entry of the audit log. */
export type ManagerAuditEntry = Out<typeof api.managerAuditEntrySchema>;
/** A manager's role. */
export type ManagerRole = api.ManagerRole;

/** Managers of your channel (scopes `user:read`, `user:manage` to change) and the channels you manage. */
export function managersApi(http: HttpClient) {
  return {
    /** `GET /v1/managers`: who manages your channel, with what role. */
    list: (options?: CallOptions) => http.call<{ data: Manager[] }>(MANAGERS_ROUTES.list, options),
    /** `POST /v1/managers`: grant an account (id or name) a role, or change the role it holds. */
    grant: (body: In<typeof api.managerGrantBodySchema>, options?: CallOptions) => http.call<Manager>(MANAGERS_ROUTES.grant, { ...options, body }),
    /** `DELETE /v1/managers/{user}`: revoke a manager. */
    revoke: (userId: number, options?: CallOptions) => http.call<void>(MANAGERS_ROUTES.revoke, { ...options, params: { user: userId } }),
    /** `GET /v1/managers/audit`: who changed what on your channel, newest first. */
    audit: (query: { limit?: number } = {}, options?: CallOptions) => http.call<Out<typeof api.managerAuditSchema>>(MANAGERS_ROUTES.audit, { ...options, query: { limit: query.limit } }),
    /** `GET /v1/managed-channels`: the channels you manage. */
    channels: (options?: CallOptions) => http.call<{ data: ManagedChannel[] }>(MANAGERS_ROUTES.channels, options),
  };
}

/** The API of {@link managersApi}. */
export type ManagersApi = ReturnType<typeof managersApi>;
