import type { NotifySub } from "@ovation/core/contracts";
import { describe, expect, it } from "vitest";
import { alertAmount } from "../app/pages/alert-log/describe.js";

const alert = (type: string, event: Record<string, unknown>) => ({ subscription: { type, condition: { platform: "twitch" } }, notification: { id: "n", created_at: "" }, event }) as unknown as NotifySub;

describe("alert log wording (issue 26, bug 10)", () => {
  it("says what a count counts", () => {
    expect(alertAmount(alert("raid", { name: "Ray", count: 120 }))).toBe("120 viewers");
    expect(alertAmount(alert("raid", { name: "Ray", count: 1 }))).toBe("1 viewer");
    expect(alertAmount(alert("gift-subscribe", { name: "Gus", count: 5 }))).toBe("5 gifted subs");
    expect(alertAmount(alert("re-subscribe", { name: "Mo", months: 1 }))).toBe("1 month");
    expect(alertAmount(alert("cheer", { name: "Bo", amount: 500 }))).toBe("500");
    expect(alertAmount(alert("donation", { name: "Di", amount: 5, currency: "EUR" }))).toBe("5 EUR");
  });
});
