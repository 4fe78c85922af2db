import type { z } from "zod";
import type { alertSetViewSchema } from "@ovation/core/api";
import type { AlertSetRecord } from "../../store/records.js";


/** The API view of an alert set. */
export function presentAlertSet(record: AlertSetRecord): z.infer<typeof alertSetViewSchema> {
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
