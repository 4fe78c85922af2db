import { buildDefaultAlertSet, resolveAlert } from "@ovation/core";
import { describe, expect, it } from "vitest";
import { planAlert, readNotification } from "../resolve.js";
import type { AlertNotification, StoredAlertResolver } from "../resolve.js";

const resolver: StoredAlertResolver = (set, input) => resolveAlert(set as Parameters<typeof resolveAlert>[0], input);
const alertSet = buildDefaultAlertSet({ id: 1, user_id: 1 }) as unknown as Record<string, unknown>;

function note(type: string, data: Record<string, unknown>, template: unknown = null, platform = "twitch"): AlertNotification {
  const parsed = readNotification({
    subscription: { type, version: "1", condition: { platform, platform_id: "1" } },
    notification: { id: `id-${type}`, created_at: "2026-11-21T04:30:00.000000Z" },
    event: data,
    ovation: { random: 42, template, test: false },
  });
  if (!parsed) throw new Error("fixture is not a notification");
  return parsed;
}

describe("planAlert", () => {
  it("resolves a stored template against the alert set (variant 1)", () => {
    const plan = planAlert(note("follow", { name: "Alice" }), alertSet, resolver, "n");
    expect(plan.kind).toBe("standard");
    if (plan.kind !== "standard") return;
    expect(plan.view.title).toEqual([
      { text: "Alice", fromData: true },
      { text: " is now following", fromData: false },
    ]);
    expect(plan.view.displayMs).toBe(8000);
  });

  it("reports the engine's reason when the set disables the alert", () => {
    const set = { ...alertSet, variations: [] };
    expect(planAlert(note("follow", { name: "A" }), set, resolver, "n")).toEqual({ kind: "disabled", reason: "no_matching_variation" });
    expect(planAlert(note("follow", { name: "A" }), null, resolver, "n")).toEqual({ kind: "disabled", reason: "this browser source has no alert set" });
  });

  it("turns an invalid alert set into a disabled alert with the engine's message, not a crash", () => {
    const plan = planAlert(note("follow", { name: "A" }), { version: 4 }, resolver, "n");
    expect(plan.kind).toBe("disabled");
    if (plan.kind === "disabled") expect(plan.reason).toMatch(/^the alert set could not be resolved: /);
  });

  it("uses an inline variant 2 template as the template itself", () => {
    const plan = planAlert(note("cheer", { message: "hi" }, { title: "Custom", subtitle: "{{message}}", display_time: 1200 }), null, resolver, "n");
    expect(plan.kind).toBe("standard");
    if (plan.kind === "standard") {
      expect(plan.view.subtitle).toEqual([{ text: "hi", fromData: true }]);
      expect(plan.view.displayMs).toBe(1200);
    }
  });

  it("renders a variant 3 template into a nonce'd document, taking timing from the stored template with user_defaults", () => {
    const set = { ...alertSet, default: { display_time: 4321 } };
    const plan = planAlert(note("follow", { message: "yo" }, { user_defaults: true, html: "<p>{k}</p>", css: "", js: "", fields: { k: "{{message}}" } }), set, resolver, "abc");
    expect(plan.kind).toBe("custom");
    if (plan.kind !== "custom") return;
    expect(plan.document).toContain("<p>yo</p>");
    expect(plan.document).toContain(`<script nonce="abc">`);
    expect(plan.displayMs).toBe(4321);
  });

  it("takes a variant 3 alert's timing from the set's default layer when its type has no stored template", () => {
    const set = { ...alertSet, default: { display_time: 2500 } };
    const template = { user_defaults: true, html: "<p>x</p>", fields: {} };
    const withDefaults = planAlert(note("custom", {}, template), set, resolver, "n");
    expect(withDefaults.kind === "custom" && withDefaults.displayMs).toBe(2500);
    const without = planAlert(note("custom", {}, { ...template, user_defaults: false }), set, resolver, "n");
    expect(without.kind === "custom" && without.displayMs).toBe(8000);
  });

  it("does not show stream state events", () => {
    expect(planAlert(note("stream.online", {}), alertSet, resolver, "n").kind).toBe("disabled");
    const redemption = note("channel.channel_points_custom_reward_redemption.add", { id: "r", name: "A" });
    expect(planAlert(redemption, alertSet, resolver, "n").kind).toBe("disabled");
  });

  it("reads the documented shape: payload keys at the top of event, own3d resolved as the service's own platform", () => {
    const parsed = readNotification({
      subscription: { type: "donation", version: "1", condition: { platform: "own3d", platform_id: "1" } },
      notification: { id: "d1", created_at: "2026-11-21T04:30:00.000000Z" },
      event: { name: "Ann", currency: "USD", amount: "5", message: "hi" },
      ovation: { random: 7, template: null, test: false },
    });
    if (!parsed) throw new Error("not read");
    const plan = planAlert(parsed, alertSet, resolver, "n");
    expect(plan.kind).toBe("standard");
    if (plan.kind === "standard") expect(plan.view.title.map((part) => part.text).join("")).toContain("Ann");
  });
});

describe("readNotification", () => {
  it("refuses payloads without an id, a type or an event object", () => {
    expect(readNotification(null)).toBeNull();
    expect(readNotification({ subscription: { type: "follow" }, notification: {}, event: {} })).toBeNull();
    expect(readNotification({ subscription: { type: "" }, notification: { id: "x" }, event: {} })).toBeNull();
    expect(readNotification({ subscription: { type: "follow" }, notification: { id: "x" }, event: "x" })).toBeNull();
    expect(readNotification({ subscription: { type: "follow" }, notification: { id: "x" }, event: [1] })).toBeNull();
    expect(readNotification({ subscription: { type: "stream.online" }, notification: { id: "x" }, event: [] })?.event).toEqual({});
  });

  it("defaults a missing platform to the service's own", () => {
    expect(readNotification({ subscription: { type: "follow" }, notification: { id: "x" }, event: {} })?.subscription.condition.platform).toBe("ovation");
  });
});
