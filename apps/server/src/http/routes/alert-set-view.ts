import { z } from "zod";
import type { AlertSetRecord } from "../../store/records.js";

/** An alert set as the API returns it: the engine document's fields beside id/version/owner/state. */
export const alertSetSchema = z
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

/** The API view of an alert set. */
export function presentAlertSet(record: AlertSetRecord): z.infer<typeof alertSetSchema> {
  return {
    ...structuredClone(record.config),
    id: record.id,
    name: record.name,
    version: record.version,
    user_id: record.user_id,
    active: record.active,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}
