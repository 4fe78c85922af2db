import { z } from "zod";

/** An alert set as the API returns it: the engine document's fields beside id/version/owner/state. */
export const alertSetViewSchema = z
  .object({
    id: z.number(),
    name: z.string(),
    version: z.number(),
    user_id: z.number(),
    active: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .catchall(z.unknown())
  .meta({ id: "AlertSet" });

/** The name of an alert set. */
export const alertSetNameSchema = z.string().trim().min(1).max(100);

/** Body of create/replace: the engine document plus `name`; `version` 4 (default) or 3 (AE3). */
export const alertSetBodySchema = z
  .object({
    name: alertSetNameSchema.optional(),
    version: z.union([z.literal(3), z.literal(4)], { error: "must be 3 (AE3) or 4 (AE4)" }).default(4),
    active: z.boolean().optional(),
  })
  .loose()
  .describe("An AE4 config (`default`, `defaults`, `variations`) or, with version 3, an AE3 document (`settings`, `types`).");

/** Body of `POST /v1/alert-configs/{id}/migrate`. */
export const alertSetMigrateBodySchema = z.object({ engine: z.literal("ae4", { error: "must be ae4" }) });

/** `GET /v1/alerts/catalog`: the platforms and alert types the server knows. */
export const alertCatalogSchema = z.object({
  platforms: z.array(z.object({ id: z.string(), name: z.string(), built_in: z.boolean() })),
  types: z.array(z.looseObject({ type: z.string(), name: z.string() })),
});

/** Answer of `POST /v1/media`: where the uploaded alert image or sound is served. */
export const mediaUploadedSchema = z.object({ url: z.string(), content_type: z.string(), size: z.number() });

/** Answer of `GET /v1/media`: the caller's uploaded media, what they take and the per-user quota. */
export const mediaListSchema = z.object({
  data: z.array(z.object({ url: z.string(), size: z.number() })),
  usage: z.object({ files: z.number(), bytes: z.number() }),
  quota: z.object({ files: z.number(), bytes: z.number() }),
});
