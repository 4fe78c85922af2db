import { z } from "zod";

/** One platform plugin of the server, its status and what to fix (`GET /v1/plugins`). */
export const pluginStatusSchema = z
  .object({
    id: z.string().describe("Factory id (the settings key)"),
    name: z.string().nullable(),
    platform: z.string().nullable(),
    version: z.string().nullable(),
    origin: z.enum(["built-in", "package", "path", "embedded"]),
    status: z.string().describe("idle, connecting, connected, degraded, disconnected, failed, or pending before it is created"),
    detail: z.string().nullable().describe("What the plugin says about its state"),
    fix: z.string().nullable().describe("What to do about it; null when nothing needs fixing"),
    channel_counts: z
      .record(z.string(), z.number())
      .describe("Plugin API 1.1: how many linked channels it serves, by state (serving, starting, needs_reconnect, missing_scope, failed)"),
    channels: z
      .array(
        z.object({
          connection_id: z.number(),
          username: z.string(),
          state: z.enum(["starting", "serving", "needs_reconnect", "missing_scope", "failed"]),
          detail: z.string().nullable(),
          missing_scopes: z.array(z.string()),
        }),
      )
      .describe("The caller's own channels this plugin serves, with their state"),
  })
  .meta({ id: "PluginStatus" });

/** An alert set of the caller naming platforms no loaded plugin serves. */
export const unservedPlatformsSchema = z.object({ alert_set_id: z.number(), platforms: z.array(z.string()), fix: z.string() });

/** Answer of `GET /v1/plugins`. */
export const pluginsListingSchema = z.object({ data: z.array(pluginStatusSchema), unserved: z.array(unservedPlatformsSchema) });
