import { describe, expect, it } from "vitest";
import type { ChatChannel } from "../../../chat/event.js";
import type { ModerationTarget } from "../../../plugins/contract.js";
import { chatEvent } from "../../__tests__/chat-events.js";
import { enforceVerdict } from "../moderation/enforce.js";

function target(support: { deleteMessage: boolean; timeout: boolean; ban: boolean }, fail = false) {
  const calls: string[] = [];
  const act = (what: string) => async () => {
    calls.push(what);
    if (fail) throw new Error("platform said no");
  };
  const t: ModerationTarget = {
    support: () => support,
    deleteMessage: async (_c: ChatChannel, id: string) => act(`delete ${id}`)(),
    timeout: async (_c: ChatChannel, user: string, seconds: number, reason: string | null) => act(`timeout ${user} ${seconds} ${reason}`)(),
    ban: async (_c: ChatChannel, user: string) => act(`ban ${user}`)(),
  };
  return { t, calls };
}

describe("enforceVerdict", () => {
  const event = chatEvent("x", { user: "u1", username: "bob" });

  it("acts through the plugin's moderation part, naming the rule as the reason", async () => {
    const { t, calls } = target({ deleteMessage: true, timeout: true, ban: true });
    expect(await enforceVerdict(event, { rule: "caps", action: { type: "timeout", seconds: 60 }, detail: "" }, t, "en")).toMatchObject({ result: "done" });
    await enforceVerdict(event, { rule: "links", action: { type: "delete" }, detail: "" }, t, "en");
    expect(calls).toEqual(["timeout u1 60 auto-moderation: caps", `delete ${event.id}`]);
  });

  it("reports an action the platform lacks as unavailable and does nothing", async () => {
    const { t, calls } = target({ deleteMessage: true, timeout: true, ban: false });
    expect(await enforceVerdict(event, { rule: "bad_words", action: { type: "ban" }, detail: "" }, t, "en")).toMatchObject({ result: "unavailable" });
    expect(await enforceVerdict(event, { rule: "bad_words", action: { type: "ban" }, detail: "" }, null, "en")).toMatchObject({ result: "unavailable" });
    expect(calls).toEqual([]);
  });

  it("reports a failed action, and warns in the channel's language", async () => {
    const { t } = target({ deleteMessage: true, timeout: true, ban: true }, true);
    expect((await enforceVerdict(event, { rule: "caps", action: { type: "delete" }, detail: "" }, t, "en")).result).toBe("failed");
    expect((await enforceVerdict(event, { rule: "caps", action: { type: "warn" }, detail: "" }, null, "de")).warning).toBe("@bob, bitte halte dich an die Chatregeln (caps).");
  });
});
