import type { FastifyInstance } from "fastify";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Records in the streamer's audit log every write a manager makes, or tries, on the streamer's
 * `{user}` routes (set apart by `resolveUserParam`): actor, role, method and route, path, status.
 * Dry runs (`.../commands/test`, `.../moderation/test`, `.../tts/preview`, which only answers the
 * audio to the caller) change nothing and are not recorded; a test alert (`.../alerts/test`) plays
 * on the streamer's overlays, so it is.
 */
export function registerManagerAudit(app: FastifyInstance): void {
  app.addHook("onResponse", async (request, reply) => {
    const managing = request.managing;
    if (managing === null || READS.has(request.method)) return;
    const route = request.routeOptions.url ?? "";
    if ((route.endsWith("/test") && !route.endsWith("/alerts/test")) || route.endsWith("/tts/preview")) return;
    const principal = request.principal;
    if (principal === null) return;
    const { repos } = app.ovation;
    repos.managers.record(managing.streamerId, {
      actor_id: principal.userId,
      actor_name: repos.users.get(principal.userId)?.name ?? `user-${principal.userId}`,
      role: managing.role,
      action: `${request.method} ${route.replace(/:(\w+)/g, "{$1}")}`,
      target: request.url.split("?")[0] ?? request.url,
      status: reply.statusCode,
    });
  });
}
