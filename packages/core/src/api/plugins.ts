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
          node: z.string().nullable().describe("With several nodes: the id of the node serving it (OVATION_SERVER_ID); null when none does now"),
        }),
      )
      .describe("The caller's own channels this plugin serves, with their state"),
  })
  .meta({ id: "PluginStatus" });

/** An alert set of the caller naming platforms no loaded plugin serves. */
export const unservedPlatformsSchema = z.object({ alert_set_id: z.number(), platforms: z.array(z.string()), fix: z.string() });

/** One node of the installation and the channels it serves, counted (`GET /v1/plugins`). */
export const nodeSummarySchema = z
  .object({
    node: z.string().describe("The node's id (OVATION_SERVER_ID)"),
    channel_counts: z.record(z.string(), z.record(z.string(), z.number())).describe("Channels it serves, by plugin and state"),
    waiting: z.number().describe("Channels assigned to it whose lease another node still holds (a move under way)"),
    lag_ms: z.number().describe("How late its last assignment step ran (event-loop or Redis lag)"),
    last_error: z.string().nullable().describe("Its last Redis failure, or null"),
    reported_at: z.number().describe("When the node wrote this (ms since epoch)"),
  })
  .meta({ id: "NodeSummary" });

/** Answer of `GET /v1/plugins`. */
export const pluginsListingSchema = z.object({ data: z.array(pluginStatusSchema), unserved: z.array(unservedPlatformsSchema), nodes: z.array(nodeSummarySchema) });
