import { describe, expect, it } from "vitest";
import type { ChatEvent } from "../../../chat/event.js";
import { chatEvent } from "../../__tests__/chat-events.js";
import { ChatBudget } from "../../chat-budget.js";
import { ModerationModule } from "../moderation/moderation-module.js";
import { LexiconToxicityScorer } from "../moderation/toxicity.js";
import { matchingWords } from "../moderation/normalize.js";

function check(settings: unknown, event: ChatEvent) {
  const module = new ModerationModule({ scorer: new LexiconToxicityScorer() });
  module.set(event.channel.id, settings);
  return module.check(event);
}

describe("auto-moderation rules", () => {
  it("caps: over the share of capitals, counting only written text (not emotes)", async () => {
    const rule = { caps: { enabled: true, min_length: 10, max_percent: 60, action: { type: "timeout", seconds: 30 } } };
    expect(await check(rule, chatEvent("THIS IS SO LOUD RIGHT NOW"))).toMatchObject({ rule: "caps", action: { type: "timeout", seconds: 30 } });
    expect(await check(rule, chatEvent("This is calm and fine"))).toBeNull();
    expect(await check(rule, chatEvent("OK SURE"))).toBeNull(); // shorter than min_length
    const emotes = { ...chatEvent("KEKW LULW OMEGALUL nice one"), fragments: [{ type: "emote" as const, text: "KEKW LULW OMEGALUL" }, { type: "text" as const, text: " nice one there" }] };
    expect(await check(rule, emotes)).toBeNull();
  });

  it("symbols, length", async () => {
    const symbols = { symbols: { enabled: true, min_length: 8, max_percent: 50 } };
    expect(await check(symbols, chatEvent("$$$ !!! ### @@@ ok"))).toMatchObject({ rule: "symbols", action: { type: "delete" } });
    expect(await check(symbols, chatEvent("hello there, friend!"))).toBeNull();
    const length = { length: { enabled: true, max_length: 20, action: { type: "warn" } } };
    expect(await check(length, chatEvent("x".repeat(21)))).toMatchObject({ rule: "length", action: { type: "warn" }, detail: "21 characters" });
    expect(await check(length, chatEvent("x".repeat(20)))).toBeNull();
  });

  it("links: with and without scheme; allowed domains include their subdomains", async () => {
    const rule = { links: { enabled: true, allowed_domains: ["twitch.tv", "Example.com"] } };
    expect(await check(rule, chatEvent("free stuff at evil-site.xyz/win"))).toMatchObject({ rule: "links", detail: "link to evil-site.xyz" });
    expect(await check(rule, chatEvent("see https://bit.ly/abc"))).toMatchObject({ rule: "links", detail: "link to bit.ly" });
    expect(await check(rule, chatEvent("clip: clips.twitch.tv/abc and example.com"))).toBeNull();
    expect(await check(rule, chatEvent("not allowed: example.com.evil.ru"))).toMatchObject({ detail: "link to example.com.evil.ru" });
    expect(await check(rule, chatEvent("notexample.com"))).toMatchObject({ detail: "link to notexample.com" });
    expect(await check(rule, chatEvent("I like node.js, e.g. this"))).toBeNull();
  });

  it("bad words: whole words, case and accents, look-alikes, stretched letters, phrases and RE2 patterns", async () => {
    const rule = { bad_words: { enabled: true, words: ["darn", "Böse", "go away"], patterns: ["sp[a4]m+y"], action: { type: "ban" } } };
    for (const text of ["DARN it", "d4rn", "daaaarn!", "so bose", "so BÖSE", "ｄａｒｎ", "please go   away", "so spammmy"]) {
      expect(await check(rule, chatEvent(text)), text).toMatchObject({ rule: "bad_words", action: { type: "ban" } });
    }
    for (const text of ["darnation is a word", "go on, away with you", "hello"]) expect(await check(rule, chatEvent(text)), text).toBeNull();
  });

  it("refuses unsafe or invalid user patterns and domains with a clear error", () => {
    const module = new ModerationModule();
    expect(() => module.set("c", { bad_words: { patterns: ["(a)\\1"] } })).toThrow(/bad_words\.patterns\.0: the pattern is not a valid RE2 pattern/);
    expect(() => module.set("c", { links: { allowed_domains: ["https://example.com/x"] } })).toThrow(/allowed_domains\.0: must be a domain written like example\.com/);
    expect(() => module.set("c", { toxicity: { thresholds: { ban: 20 } } })).toThrow(/toxicity\.thresholds\.ban/);
  });

  it("a catastrophic pattern runs in linear time (RE2), not on a backtracking engine", async () => {
    const rule = { bad_words: { enabled: true, patterns: ["(a+)+$"] } };
    // The point is the engine, not the chat budget: reading a 5,000-character message took more
    // than the 10 ms a message may spend on a loaded CI machine, so the pattern was skipped (a cut,
    // as designed) and nothing matched. A budget that load cannot spend keeps the test on RE2: a
    // backtracking engine would not finish the first check at all.
    const module = new ModerationModule({ scorer: new LexiconToxicityScorer(), budget: new ChatBudget({ messageMs: 60_000, windowBudgetMs: 60_000 }) });
    const event = chatEvent("a".repeat(5000));
    module.set(event.channel.id, rule);
    expect(await module.check(event)).toMatchObject({ rule: "bad_words" });
    expect(await module.check(chatEvent(`${"a".repeat(5000)}!`))).toBeNull();
  });

  it("exemptions spare the groups they name; the strongest action wins", async () => {
    const rules = {
      length: { enabled: true, max_length: 5, action: { type: "warn" }, exempt: ["subscriber"] },
      caps: { enabled: true, min_length: 5, max_percent: 50, action: { type: "timeout", seconds: 60 }, exempt: ["vip", "moderator"] },
    };
    expect(await check(rules, chatEvent("LOUD NOISES"))).toMatchObject({ rule: "caps" });
    expect(await check(rules, chatEvent("LOUD NOISES", { badges: ["vip"] }))).toMatchObject({ rule: "length" });
    expect(await check(rules, chatEvent("LOUD NOISES", { badges: ["vip", "subscriber"] }))).toBeNull();
    expect(await check(rules, chatEvent("LOUD NOISES", { badges: ["moderator"] }))).toMatchObject({ rule: "length" });
    const broadcaster = { ...chatEvent("LOUD NOISES"), user: { ...chatEvent("x").user, platform_id: "106415581" } };
    expect(await check({ caps: { ...rules.caps, exempt: ["broadcaster"] } }, broadcaster)).toBeNull();
  });

  it("toxicity: the lexicon scorer's score picks the action by threshold", async () => {
    const scorer = new LexiconToxicityScorer();
    expect(scorer.score("have a nice stream")).toBe(0);
    expect(scorer.score("you are an idiot")).toBeGreaterThan(scorer.score("that was idiot luck"));
    expect(scorer.score("du bist ein Vollidiot")).toBeGreaterThan(0.6);
    const rule = { toxicity: { enabled: true, thresholds: { warn: 30, delete: 50, timeout: 90, ban: null }, timeout_seconds: 120 } };
    expect(await check(rule, chatEvent("you are an idiot"))).toMatchObject({ rule: "toxicity", action: { type: "delete" } });
    expect(await check(rule, chatEvent("you idiot moron, kys"))).toMatchObject({ rule: "toxicity", action: { type: "timeout", seconds: 120 } });
    expect(await check(rule, chatEvent("stupid bug again"))).toMatchObject({ action: { type: "warn" } });
    expect(await check(rule, chatEvent("great play"))).toBeNull();
  });

  it("folds text for matching", () => {
    expect(matchingWords("Sh1t, @ss & ÜBER-cool 100 darn!")).toEqual(["sh", "t", "ss", "uber", "cool", "darn", "shit", "ass", "darni"]);
  });
});
