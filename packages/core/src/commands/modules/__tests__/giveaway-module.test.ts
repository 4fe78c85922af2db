import { describe, expect, it } from "vitest";
import { chatEvent } from "../../__tests__/chat-events.js";
import { GiveawayModule } from "../giveaways/giveaway-module.js";
import type { GiveawayState } from "../giveaways/giveaway-record.js";

describe("GiveawayModule", () => {
  it("enters viewers by keyword once each, refuses after closing, and reports every change", async () => {
    const changes: GiveawayState[] = [];
    const module = new GiveawayModule({ onChange: (_channel, state) => changes.push(structuredClone(state)) });
    module.open("chan-1", { keyword: "!Join" });
    expect(await module.enter(chatEvent("hello"))).toEqual({ status: "not_keyword" });
    expect(await module.enter(chatEvent("!joined"))).toEqual({ status: "not_keyword" });
    expect((await module.enter(chatEvent("!join please", { user: "a" }))).status).toBe("entered");
    expect(await module.enter(chatEvent("!JOIN", { user: "a" }))).toEqual({ status: "already_entered" });
    module.close("chan-1");
    expect(await module.enter(chatEvent("!join", { user: "b" }))).toEqual({ status: "closed" });
    expect(changes.map((c) => [c.status, c.entries.length])).toEqual([["open", 0], ["open", 1], ["closed", 1]]);
  });

  it("applies entry rules: subscribers only, followers (with the follower check)", async () => {
    const followers = new Set(["fan"]);
    const module = new GiveawayModule({ isFollower: (event) => followers.has(event.user.platform_id) });
    module.open("chan-1", { keyword: "!join", eligibility: "subscribers" });
    expect(await module.enter(chatEvent("!join", { user: "fan" }))).toEqual({ status: "not_eligible", eligibility: "subscribers" });
    expect((await module.enter(chatEvent("!join", { user: "sub", badges: ["subscriber"] }))).status).toBe("entered");
    module.close("chan-1");
    module.open("chan-1", { keyword: "!join", eligibility: "followers" });
    expect((await module.enter(chatEvent("!join", { user: "fan" }))).status).toBe("entered");
    expect((await module.enter(chatEvent("!join", { user: "stranger" }))).status).toBe("not_eligible");
    expect((await module.enter(chatEvent("!join", { user: "mod", badges: ["moderator"] }))).status).toBe("entered");
  });

  it("restores a stored giveaway with its entries, and refuses a malformed one", async () => {
    const first = new GiveawayModule();
    let stored: unknown = null;
    const module = new GiveawayModule({ onChange: (_c, state) => (stored = structuredClone(state)) });
    module.open("chan-1", { keyword: "!join" });
    await module.enter(chatEvent("!join", { user: "a" }));
    first.restore("chan-1", stored);
    expect(await first.enter(chatEvent("!join", { user: "a" }))).toEqual({ status: "already_entered" });
    expect(first.draw("chan-1")[0]?.user_platform_id).toBe("a");
    expect(() => first.restore("chan-1", { id: 1 })).toThrow(/invalid stored giveaway/);
  });

  it("keeps entrants apart by platform and id: one id on two platforms enters twice, a stored entry of another node once", async () => {
    const module = new GiveawayModule();
    module.open("chan-1", { keyword: "!join" });
    // The platform name built from pieces: an entry keeps one string per name, whatever the event's.
    const kick = ["ki", "ck"].join("");
    expect((await module.enter(chatEvent("!join", { user: "same" }))).status).toBe("entered");
    expect((await module.enter({ ...chatEvent("!join", { user: "same" }), platform: kick })).status).toBe("entered");
    expect(await module.enter({ ...chatEvent("!join", { user: "same" }), platform: "kick" })).toEqual({ status: "already_entered" });
    const stored = { platform: "kick", user_platform_id: "other", username: "o", weight: 1, entered_at: 1 };
    expect(module.addStoredEntries("chan-1", [stored, { ...stored, user_platform_id: "same" }, { ...stored, platform: "youtube", user_platform_id: "same" }])).toBe(2);
    expect(module.get("chan-1")?.entries.map((e) => `${e.platform}/${e.user_platform_id}`)).toEqual(["twitch/same", "kick/same", "kick/other", "youtube/same"]);
    expect(await module.enter({ ...chatEvent("!join", { user: "other" }), platform: "kick" })).toEqual({ status: "already_entered" });
  });

  it("refuses to open twice, to draw from nothing and bad settings, naming the problem", () => {
    const module = new GiveawayModule();
    expect(() => module.open("c", { keyword: "two words" })).toThrow(/keyword: must be one word/);
    module.open("c", { keyword: "!join" });
    expect(() => module.open("c", { keyword: "!join" })).toThrow(/already open/);
    expect(() => module.draw("c")).toThrow(/nobody entered/);
    expect(() => module.draw("c", 0)).toThrow(/count: must be an integer from 1 to 100/);
    expect(() => module.close("x")).toThrow(/no giveaway is open/);
  });
});
