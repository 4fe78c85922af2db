import { describe, expect, it } from "vitest";
import { CommandRuntime } from "../command-runtime.js";
import { CooldownTracker, type CooldownClaim, type CooldownEntry, type CooldownStore } from "../cooldowns.js";
import { InMemoryKeyValueStore } from "../key-value-store.js";
import { chatEvent } from "./chat-events.js";

describe("CooldownTracker.claim", () => {
  it("takes every entry at once, or reports the first one still cooling down", () => {
    let now = 1_000_000;
    const tracker = new CooldownTracker({ now: () => now });
    const first = tracker.claim([{ key: "g", seconds: 10 }, { key: "u", seconds: 30 }]);
    expect(first.ok).toBe(true);
    expect(tracker.claim([{ key: "g", seconds: 10 }, { key: "u", seconds: 30 }])).toEqual({ ok: false, index: 0, remainingSeconds: 10 });
    now += 10_000;
    expect(tracker.claim([{ key: "g", seconds: 10 }, { key: "u", seconds: 30 }])).toEqual({ ok: false, index: 1, remainingSeconds: 20 });
    // The refused claim took nothing: "g" is still free.
    expect(tracker.remainingSeconds("g", 10)).toBe(0);
  });

  it("release gives back what the claim took, restoring an earlier use", async () => {
    let now = 0;
    const tracker = new CooldownTracker({ now: () => now });
    tracker.use("g");
    now = 5_000;
    const claim = tracker.claim([{ key: "g", seconds: 5 }, { key: "new", seconds: 5 }]);
    expect(claim.ok).toBe(true);
    if (claim.ok) await claim.release();
    expect(tracker.remainingSeconds("g", 60)).toBe(55);
    expect(tracker.remainingSeconds("new", 60)).toBe(0);
  });

  it("release gives back every entry even when the clock moved during the claim", async () => {
    // A clock that advances on every reading, as Date.now() may between two entries.
    let now = 10_000;
    const tracker = new CooldownTracker({ now: () => now++ });
    const claim = tracker.claim([{ key: "g", seconds: 5 }, { key: "u", seconds: 5 }]);
    expect(claim.ok).toBe(true);
    expect(tracker.remainingSeconds("g", 5)).toBeGreaterThan(0);
    if (claim.ok) await claim.release();
    expect(tracker.remainingSeconds("g", 5)).toBe(0);
    expect(tracker.remainingSeconds("u", 5)).toBe(0);
  });

  it("records no entry without a cooldown (0 s), as the shared Redis store does not", () => {
    let now = 0;
    const tracker = new CooldownTracker({ now: () => now });
    expect(tracker.claim([{ key: "g", seconds: 0 }, { key: "u", seconds: 30 }]).ok).toBe(true);
    now = 1_000;
    // Had the 0 s entry been recorded, a cooldown raised to 60 s would count it.
    expect(tracker.remainingSeconds("g", 60)).toBe(0);
    expect(tracker.remainingSeconds("u", 60)).toBe(59);
  });

  it("force takes entries without checking them (moderators)", () => {
    let now = 0;
    const tracker = new CooldownTracker({ now: () => now });
    tracker.use("g");
    now = 1_000;
    expect(tracker.claim([{ key: "g", seconds: 60 }], { force: true }).ok).toBe(true);
    expect(tracker.remainingSeconds("g", 60)).toBe(60);
  });
});

describe("CommandRuntime and its cooldown store", () => {
  it("asks the store only for commands with a cooldown", async () => {
    const claimed: string[][] = [];
    const tracker = new CooldownTracker();
    const store: CooldownStore = {
      remainingSeconds: (key, seconds) => tracker.remainingSeconds(key, seconds),
      claim: (entries: readonly CooldownEntry[], options?: { force?: boolean }): CooldownClaim => {
        claimed.push(entries.map((entry) => `${entry.key.split("\u0000").slice(1).join("/")}:${entry.seconds}`));
        return tracker.claim(entries, options);
      },
    };
    const runtime = new CommandRuntime({ store: new InMemoryKeyValueStore(), cooldowns: store });
    runtime.setCommands("chan-1", [
      { command: "free", response: "no cooldown", global_cooldown: 0, user_cooldown: 0 },
      { command: "slow", response: "cooling", global_cooldown: 30, user_cooldown: 0 },
    ]);
    expect((await runtime.handle(chatEvent("!free", { user: "u1" })))?.text).toBe("no cooldown");
    expect((await runtime.handle(chatEvent("!free", { user: "u1" })))?.text).toBe("no cooldown");
    expect(claimed).toEqual([]);
    expect((await runtime.handle(chatEvent("!slow", { user: "u1" })))?.text).toBe("cooling");
    expect(await runtime.handle(chatEvent("!slow", { user: "u2" }))).toBeNull();
    expect(claimed).toEqual([
      ["slow:30", "slow/u1:0"],
      ["slow:30", "slow/u2:0"],
    ]);
  });
});
