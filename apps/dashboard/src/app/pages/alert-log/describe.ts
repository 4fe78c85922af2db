import type { NotifySub } from "@ovation/core/contracts";

/** Who an alert is about, from the payload keys the alert types use (`name`, `user_name`...). */
export function alertWho(notification: NotifySub): string {
  const event = notification.event as Record<string, unknown>;
  for (const key of ["name", "user_name", "username", "display_name", "from_broadcaster_user_name", "user_login"]) {
    const value = event[key];
    if (typeof value === "string" && value.trim() !== "") return value;
  }
  return "—";
}

/** An amount or count worth showing beside the type (`amount` with its currency, `viewers`, `months`...). */
export function alertAmount(notification: NotifySub): string | null {
  const event = notification.event as Record<string, unknown>;
  const amount = event["amount"];
  if (typeof amount === "number" || typeof amount === "string") {
    const currency = typeof event["currency"] === "string" ? ` ${event["currency"]}` : "";
    return `${amount}${currency}`;
  }
  for (const key of ["viewers", "months", "count", "bits"]) {
    const value = event[key];
    if (typeof value !== "number") continue;
    const [one, many] = unitsOf(notification.subscription.type, key);
    return `${value} ${value === 1 ? one : many}`;
  }
  return null;
}

/** What a count counts, in words: a raid's `count` is viewers, a gift's is subscriptions. */
function unitsOf(type: string, key: string): readonly [string, string] {
  if (key === "count") return COUNT_UNITS[type] ?? ["time", "times"];
  return KEY_UNITS[key] ?? [key, key];
}

const KEY_UNITS: Readonly<Record<string, readonly [string, string]>> = {
  viewers: ["viewer", "viewers"],
  months: ["month", "months"],
  bits: ["bit", "bits"],
};

const COUNT_UNITS: Readonly<Record<string, readonly [string, string]>> = {
  raid: ["viewer", "viewers"],
  "gift-subscribe": ["gifted sub", "gifted subs"],
};

/** A short local time for a logged alert. */
export function alertTime(notification: NotifySub): string {
  const at = new Date(notification.notification.created_at);
  return Number.isNaN(at.getTime()) ? notification.notification.created_at : at.toLocaleString();
}
