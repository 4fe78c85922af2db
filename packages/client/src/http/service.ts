import type * as api from "@ovation/core/api";
import type { Out } from "./schema-types.js";
import type { CallOptions, HttpClient } from "./transport.js";

/** Routes of {@link serviceApi}. */
export const SERVICE_ROUTES = {
  health: { method: "GET", path: "/health" },
  serverIds: { method: "GET", path: "/server-ids" },
  openapi: { method: "GET", path: "/openapi.json" },
  jwks: { method: "GET", path: "/.well-known/jwks.json" },
} as const;

/** Liveness, the server ids for sticky sessions, the OpenAPI document and the JWKS (no token needed). */
export function serviceApi(http: HttpClient) {
  return {
    /** `GET /health`. */
    health: (options?: CallOptions) => http.call<Out<typeof api.healthSchema>>(SERVICE_ROUTES.health, options),
    /** `GET /server-ids`: the ids a socket client may put in the `serverid` cookie. */
    serverIds: (options?: CallOptions) => http.call<Out<typeof api.serverIdsSchema>>(SERVICE_ROUTES.serverIds, options),
    /** `GET /openapi.json`: the OpenAPI 3 document of the API. */
    /** `GET /.well-known/jwks.json`: the public keys that verify access tokens (RS256) and ID tokens (ES256). */
    jwks: (options?: CallOptions) => http.call<{ keys: Array<Record<string, unknown> & { kid?: string; kty: string }> }>(SERVICE_ROUTES.jwks, options),
    openapi: (options?: CallOptions) => http.call<{ openapi: string; paths: Record<string, Record<string, unknown>> } & Record<string, unknown>>(SERVICE_ROUTES.openapi, options),
  };
}

/** The API of {@link serviceApi}. */
export type ServiceApi = ReturnType<typeof serviceApi>;
