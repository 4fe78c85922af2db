import type { NotifySub } from "@ovation/core";
import { describe, expect, test } from "vitest";
import type { AlertLogEvent } from "../alert-log-events.js";
import { NO_ACKNOWLEDGEMENTS, compactEntry, compactEvent, loggedNotification, newEntry, storedEntry, storedEntryJson, storedEventJson } from "../logged-alert.js";
import type { StoredAlertLogEntry } from "../records.js";
import { alertLogEntryBytes } from "../user-caps.js";

const condition = { platform: "twitch", platform_id: "1" };
const notifications: NotifySub[] = [
  {
    subscription: { type: "cheer", version: "1", condition },
    notification: { id: "n-1", created_at: "2026-11-27T00:00:00.000000Z" },
    event: { message: 'quotes " and \\ and \n\u2028, emoji 😀, lone \ud800', bits: 100, nested: [{ a: null }, [], {}], big: 1e21, neg: -0.5 },
    ovation: { random: 42, template: { html: "<b>{{name}}</b>" }, test: false, platform_data: { raw: true } },
  },
  // The shape logged before the payload moved to `event` (read by `upgradeLoggedNotification`).
  { subscription: { type: "follow", version: "1", condition }, notification: { id: "n-2", created_at: "" }, event: { data: { name: "Zoë" }, random: 1, template: null, test: true } },
  { subscription: { type: "follow", version: "1", condition }, notification: { id: "n-3", created_at: "" }, event: [] as never },
];

function stored(notification: NotifySub, i: number): StoredAlertLogEntry {
  return { seq: 10 + i, user_id: 3, notification, test: i === 1, logged_at: 1_700_000_000_000 + i, acked_by: i === 0 ? [5, 2] : [], cleared: i === 2 };
}

describe("alert-log entries held as text", () => {
  test("a stored entry round-trips: the same JSON text as the object form, the same notification", () => {
    notifications.forEach((notification, i) => {
      const old = stored(notification, i);
      const entry = compactEntry(structuredClone(old));
      expect(entry.notification_id).toBe(notification.notification.id);
      expect(storedEntryJson(entry)).toBe(JSON.stringify(old));
      expect(storedEntry(entry)).toEqual(old);
      expect(loggedNotification(entry)).toEqual(notification);
      // The byte cap counts what it counted of the object.
      expect(alertLogEntryBytes(entry)).toBe(Buffer.byteLength(JSON.stringify(notification)));
    });
  });

  test("events are stored as before: an added entry in the object form, acknowledgements and clears unchanged", () => {
    const old = stored(notifications[0]!, 0);
    const events: AlertLogEvent[] = [{ t: "add", e: compactEntry(old) }, { t: "ack", seq: 10, bs: 4 }, { t: "clear", upTo: 10 }];
    expect(events.map(storedEventJson)).toEqual([JSON.stringify({ t: "add", e: old }), '{"t":"ack","seq":10,"bs":4}', '{"t":"clear","upTo":10}']);
    expect(events.map((e) => compactEvent(JSON.parse(storedEventJson(e))))).toEqual(events);
  });

  test("a write may store more acknowledgements than the entry holds; the entry is not changed", () => {
    const entry = compactEntry(stored(notifications[0]!, 0));
    expect(JSON.parse(storedEntryJson(entry, [5, 2, 9])).acked_by).toEqual([5, 2, 9]);
    expect(entry.acked_by).toEqual([5, 2]);
  });

  test("a new entry holds the notification's text and a shared empty acknowledgement list no one can change in place", () => {
    const notification = notifications[0]!;
    const entry = newEntry({ seq: 1, userId: 3, notification, test: false, loggedAt: 5 });
    expect(entry).toEqual({ seq: 1, user_id: 3, notification_json: JSON.stringify(notification), notification_id: "n-1", test: false, logged_at: 5, acked_by: [], cleared: false });
    expect(entry.acked_by).toBe(NO_ACKNOWLEDGEMENTS);
    expect(() => (entry.acked_by as number[]).push(1)).toThrow(TypeError);
    // A stored entry with no acknowledgement shares it too; one with some keeps its own.
    expect(compactEntry(stored(notifications[1]!, 1)).acked_by).toBe(NO_ACKNOWLEDGEMENTS);
    // Each read is a new object: changing one changes neither the log nor the next read.
    const read = loggedNotification(entry);
    read.notification.id = "changed";
    expect(loggedNotification(entry).notification.id).toBe("n-1");
  });

  test("a stored entry whose notification has no id is refused with a message naming it", () => {
    const bad = { ...stored(notifications[0]!, 0), notification: { event: {} } as unknown as NotifySub };
    expect(() => compactEntry(bad)).toThrow("alert-log entry 10 of user 3 has no notification id");
  });
});
