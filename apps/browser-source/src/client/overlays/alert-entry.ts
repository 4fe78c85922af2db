import { ALERT_CATALOG } from "@ovation/core/alerts";
import { readNotification } from "../resolve.js";
import type { AlertNotification } from "../resolve.js";

/** One alert as the overlays show it: who, what, how much, and the viewer's message. */
export interface AlertEntry {
  id: string;
  type: string;
  platform: string;
  test: boolean;
  /** The catalog's name of the type ("Follow", "Subscribe"...), or the type itself. */
  label: string;
  name: string;
  /** Bits, months, gifts, viewers, money: whatever amount the type carries, as text; "" when none. */
  amount: string;
  /** The amount as a number for effects sized by amount; 1 when the type has none. */
  size: number;
  message: string;
}

const LABELS = new Map(ALERT_CATALOG.map((t) => [t.type, t.name]));

const text = (value: unknown): string => (typeof value === "string" ? value : typeof value === "number" && Number.isFinite(value) ? String(value) : "");

/** Reads a notifysub payload as an alert entry; null when it is not an alert (malformed, stream state). */
export function readAlertEntry(payload: unknown): AlertEntry | null {
  const notification: AlertNotification | null = readNotification(payload);
  if (!notification) return null;
  const type = notification.subscription.type;
  if (type.startsWith("stream.") || type === "update") return null;
  const data = notification.event;
  const name = text(data.name) || text(data.user_name) || text(data.username) || text(data.from) || "Someone";
  const amountKey = ["amount", "bits", "months", "count", "viewers", "gifts"].find((key) => text(data[key]) !== "");
  const rawAmount = amountKey === undefined ? "" : text(data[amountKey]);
  const currency = text(data.currency);
  const size = Number(rawAmount);
  return {
    id: notification.notification.id,
    type,
    platform: notification.subscription.condition.platform,
    test: notification.ovation.test === true,
    label: LABELS.get(type as (typeof ALERT_CATALOG)[number]["type"]) ?? type,
    name: name.slice(0, 100),
    amount: rawAmount === "" ? "" : `${rawAmount}${currency ? ` ${currency.slice(0, 8)}` : ""}`,
    size: Number.isFinite(size) && size > 0 ? size : 1,
    message: (text(data.message) || text(data.comment)).slice(0, 300),
  };
}
