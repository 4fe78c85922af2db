import { pluginsListingSchema } from "@ovation/core/api";
import { PLATFORMS } from "@ovation/core/contracts";
import { pluginFix, unservedFix } from "../../plugins/plugin-fixes.js";
import { unservedPlatforms } from "../../plugins/unserved-platforms.js";
import { callerOf } from "../authenticate.js";
import { authErrorResponses } from "../types.js";
import type { ZodApp } from "../types.js";

function countStates(channels: readonly { state: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const c of channels) counts[c.state] = (counts[c.state] ?? 0) + 1;
  return counts;
}

/**
 * `GET /v1/plugins`: the platform plugins of this server with their status and what to fix, and the
 * caller's alert sets naming platforms no loaded plugin serves (what `ovation plugins` shows, over
 * HTTP for a signed-in user). Any valid token may read it; file locations are left out.
 */
export async function pluginRoutes(app: ZodApp): Promise<void> {
  const auth = app.ovation.authenticate();
  app.get(
    "/v1/plugins",
    {
      preHandler: auth,
      schema: {
        tags: ["plugins"],
        summary: "The platform plugins, their status and what to fix",
        security: [{ bearerAuth: [] }],
        response: { 200: pluginsListingSchema, ...authErrorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const reports = app.hasDecorator("pluginReports") ? app.pluginReports.list() : [];
      const nodes = app.hasDecorator("nodeStatuses") ? await app.nodeStatuses() : [];
      // Which node serves each channel (a channel the assignment is moving is on none for a moment).
      const servedBy = new Map<string, string>();
      for (const n of nodes) for (const c of n.channels) servedBy.set(`${c.plugin}:${c.connection_id}`, n.node);
      const registry = app.hasDecorator("platformPlugins") ? app.platformPlugins.platforms().map((p) => p.id) : PLATFORMS;
      const unserved = unservedPlatforms(app.ovation.repos, registry).filter((u) => u.user_id === userId);
      return {
        data: reports.map((r) => ({
          id: r.id,
          name: r.name,
          platform: r.platform,
          version: r.version,
          origin: r.origin,
          status: r.status,
          detail: r.detail,
          fix: pluginFix(r),
          channel_counts: countStates(r.channels),
          // Other users' channels are counted, never named.
          channels: r.channels
            .filter((c) => c.channel_id === String(userId))
            .map((c) => ({ connection_id: c.connection_id, username: c.username, state: c.state, detail: c.detail, missing_scopes: c.missing_scopes, node: servedBy.get(`${r.name}:${c.connection_id}`) ?? null })),
        })),
        unserved: unserved.map((u) => ({ alert_set_id: u.alert_set_id, platforms: u.platforms, fix: unservedFix(u) })),
        // Counted, never named: the names of other users' channels stay out of this answer.
        nodes: nodes.map((n) => {
          const counts: Record<string, Record<string, number>> = {};
          for (const c of n.channels) {
            const byState = (counts[c.plugin] ??= {});
            byState[c.state] = (byState[c.state] ?? 0) + 1;
          }
          return { node: n.node, channel_counts: counts, waiting: n.waiting, lag_ms: n.lag_ms, last_error: n.last_error, reported_at: n.at };
        }),
      };
    },
  );
}
