import { healthSchema, serverIdsSchema } from "@ovation/core/api";
import type { ZodApp } from "../types.js";

/** `GET /health` for probes and `GET /server-ids` for sticky sessions. */
export async function healthRoutes(app: ZodApp): Promise<void> {
  const startedAt = Date.now();
  app.get(
    "/health",
    {
      schema: {
        tags: ["service"],
        summary: "Liveness probe",
        response: { 200: healthSchema },
      },
    },
    async () => ({ status: "ok" as const, uptime_seconds: Math.round((Date.now() - startedAt) / 1000), server_id: app.ovation.config.serverId }),
  );
  app.get(
    "/server-ids",
    {
      schema: {
        tags: ["service"],
        summary: "Server ids a socket client may put in the serverid cookie",
        description: "The ids of the nodes that answer: this node's alone, or with Redis every node whose heartbeat has not expired (OVATION_NODE_TTL_SECONDS).",
        response: { 200: serverIdsSchema },
      },
    },
    async () => (app.ovation.nodes ? app.ovation.nodes.liveIds() : [app.ovation.config.serverId]),
  );
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
