import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Backoff, SendQueue, Timers, hostSettings, jitter, splitChatText, toMicrosecondIso, tokenFragments } from "../index.js";
import { until } from "../testing/index.js";

describe("splitChatText", () => {
  it("keeps short text, splits long text at spaces into messages of at most 200 characters, and cuts after three", () => {
    expect(splitChatText("  hello\nworld  ", 200)).toEqual(["hello world"]);
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
    const parts = splitChatText(words, 200);
    expect(parts.length).toBe(3);
    for (const p of parts) expect(Array.from(p).length).toBeLessThanOrEqual(200);
    expect(parts.join(" ")).toBe(words);
    const huge = "x".repeat(1000);
    const cut = splitChatText(huge, 200);
    expect(cut.map((p) => Array.from(p).length)).toEqual([200, 200, 200]);
    expect(cut[2]?.endsWith("…")).toBe(true);
    expect(splitChatText("🎉".repeat(250), 200).map((p) => Array.from(p).length)).toEqual([200, 50]);
    expect(splitChatText("   ", 200)).toEqual([]);
  });
});

describe("hostSettings", () => {
  it("keeps each setting's check and leaves its default to the plugin's options", () => {
    const choices = { gapMs: z.coerce.number<number>({ error: "must be a number" }).nonnegative("must be 0 or more").default(1_000), room: z.string().min(1).optional() };
    const host = z.object(hostSettings(choices));
    const options = z.object(choices);
    expect(host.parse({})).toEqual({});
    expect(options.parse(host.parse({}))).toEqual({ gapMs: 1_000 });
    expect(options.parse(host.parse({ gapMs: "250", room: "a" }))).toEqual({ gapMs: 250, room: "a" });
    expect(host.safeParse({ gapMs: "-1" }).error?.issues.map((i) => i.message)).toEqual(["must be 0 or more"]);
    expect(host.safeParse({ gapMs: "soon" }).error?.issues.map((i) => i.message)).toEqual(["must be a number"]);
  });
});

describe("SendQueue", () => {
  it("sends one at a time in order and refuses pushes beyond its limit", async () => {
    const queue = new SendQueue({ limit: 2, gapMs: 0 });
    const order: number[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const full = () => new Error("full");
    const a = queue.push(async () => {
      await gate;
      order.push(1);
    }, full);
    const b = queue.push(async () => void order.push(2), full);
    const c = queue.push(async () => void order.push(3), full);
    await expect(queue.push(async () => void order.push(4), full)).rejects.toThrow("full");
    release();
    await Promise.all([a, b, c]);
    expect(order).toEqual([1, 2, 3]);
    const failing = queue.push(async () => {
      throw new Error("boom");
    }, full);
    await expect(failing).rejects.toThrow("boom");
    queue.stop(() => new Error("stopped"));
    await expect(queue.push(async () => undefined, full)).rejects.toThrow("full");
  });
});

describe("toMicrosecondIso", () => {
  it("keeps an RFC 3339 UTC time's own digits with exactly six fractional digits", () => {
    expect(toMicrosecondIso("2026-11-21T04:31:00Z")).toBe("2026-11-21T04:31:00.000000Z");
    expect(toMicrosecondIso("2026-11-21T04:31:00.1Z")).toBe("2026-11-21T04:31:00.100000Z");
    expect(toMicrosecondIso("2026-11-21T04:31:00.123456789Z")).toBe("2026-11-21T04:31:00.123456Z");
  });
  it("reads other times through Date and makes an unreadable one now", () => {
    expect(toMicrosecondIso("2026-11-21T05:31:00.5+01:00")).toBe("2026-11-21T04:31:00.500000Z");
    const before = Date.now();
    const now = Date.parse(toMicrosecondIso("not a time"));
    expect(now).toBeGreaterThanOrEqual(before - 1);
    expect(toMicrosecondIso("not a time")).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}000Z$/);
  });
});

describe("Timers", () => {
  it("runs later callbacks, and clear cancels the pending ones and wakes sleepers at once", async () => {
    const timers = new Timers();
    const ran: string[] = [];
    timers.later(0, () => ran.push("soon"));
    await until(() => ran.length === 1, "the first callback");
    timers.later(60_000, () => ran.push("never"));
    const sleeping = timers.sleep(60_000).then(() => ran.push("woken"));
    expect(timers.pending).toBe(2);
    timers.clear();
    await sleeping;
    expect(ran).toEqual(["soon", "woken"]);
    expect(timers.pending).toBe(0);
    await expect(timers.sleep(0)).resolves.toBeUndefined();
  });
});

describe("Backoff", () => {
  it("doubles from min up to max within ±20% and starts again after reset", () => {
    const backoff = new Backoff({ min: 100, max: 350 });
    const waits = Array.from({ length: 4 }, () => backoff.next());
    const bases = [100, 200, 350, 350];
    waits.forEach((wait, i) => {
      expect(wait).toBeGreaterThanOrEqual(Math.floor((bases[i] ?? 0) * 0.8));
      expect(wait).toBeLessThanOrEqual(Math.ceil((bases[i] ?? 0) * 1.2));
    });
    backoff.reset();
    expect(backoff.next()).toBeLessThanOrEqual(120);
    for (let i = 0; i < 50; i++) expect(Math.abs(jitter(1000) - 1000)).toBeLessThanOrEqual(200);
  });
});

describe("until", () => {
  it("resolves with the first truthy reading and names what it waited for on timeout", async () => {
    let n = 0;
    await expect(until(() => (++n >= 3 ? n : false), "three reads")).resolves.toBe(3);
    await expect(until(() => null, "nothing", 50)).rejects.toThrow("timed out waiting for nothing");
  });
});

describe("tokenFragments", () => {
  it("cuts text around the matches and always gives at least one fragment", () => {
    const mention = (m: RegExpExecArray) => ({ type: "mention" as const, text: m[0] });
    expect(tokenFragments("hi @a and @b!", /@\w+/g, mention)).toEqual([
      { type: "text", text: "hi " },
      { type: "mention", text: "@a" },
      { type: "text", text: " and " },
      { type: "mention", text: "@b" },
      { type: "text", text: "!" },
    ]);
    expect(tokenFragments("@a", /@\w+/g, mention)).toEqual([{ type: "mention", text: "@a" }]);
    expect(tokenFragments("", /@\w+/g, mention)).toEqual([{ type: "text", text: "" }]);
  });
});
