import { randomUUID } from "node:crypto";
import type { NotifySub } from "@ovation/core";

/** A NotifySub notification as the server builds it (docs/contracts.md). */
export function notification(
  type: string,
  data: Record<string, unknown>,
  options: { template?: unknown; platform?: string; replay?: boolean; id?: string } = {},
): NotifySub {
  return {
    subscription: { type, version: "1", condition: { platform: options.platform ?? "twitch", platform_id: "106415581" } },
    notification: { id: options.id ?? randomUUID(), created_at: new Date().toISOString() },
    event: { data, random: 42, template: options.template ?? null, test: false, ...(options.replay ? { replay: true } : {}) },
  };
}
