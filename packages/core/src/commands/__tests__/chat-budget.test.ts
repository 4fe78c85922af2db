import { describe, expect, it } from "vitest";
import { ChatBudget, type ChatBudgetCut } from "../chat-budget.js";
import { CommandError } from "../command-error.js";
import { CHAT_PATTERN_LIMITS, CommandRegex } from "../command-regex.js";
import { CommandRuntime } from "../command-runtime.js";
import { InMemoryKeyValueStore } from "../key-value-store.js";
import { BotModuleError } from "../modules/module-error.js";
import { ModerationModule } from "../modules/moderation/moderation-module.js";
import { readings, wordVariants } from "../modules/moderation/normalize.js";
import { chatEvent } from "./chat-events.js";

/** A clock that moves `step` ms each time it is read: every pattern "costs" the same, deterministically. */
function steppingClock(step: number): () => number {
  let now = 0;
  return () => (now += step);
}

/** 20 regex commands; only the last matches `!zz...`, the first matches `!aa...`. */
function regexCommands() {
  return Array.from({ length: 20 }, (_, i) => ({ command: `r${i}`, response: `hit ${i}`, command_regex: i === 19 ? "^!zz" : i === 0 ? "^!aa" : `^!q${i}x` }));
}

describe("chat patterns: limits at save", () => {
  it("refuses counted repetitions past repeatCount before compiling, and programs past programSize", () => {
    expect(() => CommandRegex.compile("(?:.{1,999})x")).toThrow(/repeats 999 times; the limit is 100 \(repeatCount\)/);
    expect(() => CommandRegex.compile("(?i)(?:\\w+\\s?){1,100}!")).toThrow(/compiles to \d+ instructions; the limit is 500 \(programSize\)/);
    // An escaped brace is a literal, not a repetition.
    expect(CommandRegex.compile("\\{1000}").test("x{1000}")).toBe(true);
    expect(CommandRegex.compile("^!(hi|hello)\\b").programSize).toBeLessThan(CHAT_PATTERN_LIMITS.programSize);
  });

  it("the command runtime refuses more than 20 regex commands, or 4,000 instructions together, naming the limit", () => {
    const runtime = new CommandRuntime({ store: new InMemoryKeyValueStore() });
    const many = [...regexCommands(), { command: "r20", response: "x", command_regex: "^!more" }];
    expect(() => runtime.setCommands("c", many)).toThrow(/21 commands with a command_regex; the limit is 20 \(regexCommands\)/);
    // Each under the per-pattern limit, but 20 of them pass the channel's total.
    const heavy = Array.from({ length: 20 }, (_, i) => ({ command: `h${i}`, response: "x", command_regex: `(\\w|\\W){50,100}${i}$` }));
    expect(() => runtime.setCommands("c", heavy)).toThrow(/compile to \d+ instructions together; the limit is 4000 \(commandProgramTotal\)/);
    expect(runtime.setCommands("c", regexCommands())).toHaveLength(20);
  });

  it("moderation refuses patterns over their total, listing it as a bad_words.patterns issue", () => {
    const moderation = new ModerationModule();
    const patterns = Array.from({ length: 20 }, (_, i) => `(\\w|\\W){50,100}${i}$`);
    let error: unknown;
    try {
      moderation.prepare({ bad_words: { enabled: true, patterns } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(BotModuleError);
    expect((error as BotModuleError).details["issues"]).toEqual([expect.stringMatching(/^bad_words\.patterns: the patterns compile to \d+ instructions together; the limit is 4000 \(moderationProgramTotal\)$/)]);
    expect(() => moderation.prepare({ bad_words: { patterns: ["(a|aa){1,999}c"] } })).toThrow(/repeatCount/);
  });

  it("a refused pattern is a CommandError with the regex code", () => {
    try {
      CommandRegex.compile("a{1,500}");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CommandError);
      expect((error as CommandError).code).toBe("OVATION_ERR_COMMANDS_INVALID_REGEX");
    }
  });
});

describe("chat patterns: matching is cut by the budget and reported", () => {
  it("a message stops trying regexes once its time is spent; the skipped ones are reported", async () => {
    const cuts: ChatBudgetCut[] = [];
    const budget = new ChatBudget({ now: steppingClock(4), messageMs: 10, windowBudgetMs: 1_000, onCut: (cut) => cuts.push(cut) });
    const runtime = new CommandRuntime({ store: new InMemoryKeyValueStore(), budget });
    runtime.setCommands("chan-1", regexCommands());
    // Only the 20th regex matches, but the clock says the budget is gone after two patterns.
    expect(await runtime.handle(chatEvent("!zz top"))).toBeNull();
    expect(cuts).toEqual([{ channel: "chan-1", stage: "command_regex", skipped: 18, reason: "message" }]);
    // A message the first regex matches is answered within the budget.
    expect((await runtime.handle(chatEvent("!aa")))?.text).toBe("hit 0");
    // A command named by its name costs no regex at all.
    expect((await runtime.handle(chatEvent("!r19")))?.text).toBe("hit 19");
    expect(budget.cuts).toBe(1);
  });

  it("a channel that spent its window tries no regex until the window ends; other channels are unaffected", async () => {
    const cuts: ChatBudgetCut[] = [];
    let now = 0;
    const budget = new ChatBudget({ now: () => (now += 4), messageMs: 100, windowBudgetMs: 15, windowMs: 1_000, onCut: (cut) => cuts.push(cut) });
    const runtime = new CommandRuntime({ store: new InMemoryKeyValueStore(), budget });
    runtime.setCommands("noisy", regexCommands());
    runtime.setCommands("quiet", regexCommands());
    const inChannel = (message: string, channel: string) => chatEvent(message, { channel });
    expect(await runtime.handle(inChannel("!zz", "noisy"))).toBeNull();
    expect(cuts.at(-1)).toMatchObject({ channel: "noisy", reason: "window" });
    // Even the first regex would match: the window is spent, so nothing is tried.
    expect(await runtime.handle(inChannel("!aa", "noisy"))).toBeNull();
    expect(cuts.at(-1)).toEqual({ channel: "noisy", stage: "command_regex", skipped: 20, reason: "window" });
    expect((await runtime.handle(inChannel("!aa", "quiet")))?.text).toBe("hit 0");
    now += 1_000;
    expect((await runtime.handle(inChannel("!aa", "noisy")))?.text).toBe("hit 0");
  });

  it("moderation patterns are tried within the same budget; a cut is reported, not taken for a match", async () => {
    const cuts: ChatBudgetCut[] = [];
    const budget = new ChatBudget({ now: steppingClock(4), messageMs: 10, windowBudgetMs: 1_000, onCut: (cut) => cuts.push(cut) });
    const moderation = new ModerationModule({ budget });
    const patterns = [...Array.from({ length: 49 }, (_, i) => `nomatch${i}`), "ba+d"];
    moderation.set("chan-1", { bad_words: { enabled: true, patterns } });
    expect(await moderation.check(chatEvent("this is baaad"))).toBeNull();
    expect(cuts).toEqual([{ channel: "chan-1", stage: "moderation_patterns", skipped: 49, reason: "message" }]);
    // With the real clock the same settings find it (the patterns are cheap).
    const unhurried = new ModerationModule();
    unhurried.set("chan-1", { bad_words: { enabled: true, patterns } });
    expect(await unhurried.check(chatEvent("this is baaad"))).toMatchObject({ rule: "bad_words", detail: "the pattern ba+d" });
  });
});

/** The bad-word check as it was before phrases were indexed (every phrase at every position). */
function naiveBadWord(entries: readonly string[], message: string): string | null {
  const words = new Set<string>();
  const phrases: string[][] = [];
  for (const entry of entries) {
    const folded = readings(entry).literal;
    if (folded.length === 1) words.add(folded[0] as string);
    else if (folded.length > 1) phrases.push(folded);
  }
  const { literal, substituted } = readings(message);
  for (const word of new Set([...literal, ...substituted])) if (wordVariants(word).some((v) => words.has(v))) return "a blocked word";
  for (const list of [literal, substituted]) {
    for (const phrase of phrases) {
      for (let start = 0; start + phrase.length <= list.length; start++) {
        if (phrase.every((part, offset) => wordVariants(list[start + offset] as string).includes(part))) return "a blocked phrase";
      }
    }
  }
  return null;
}

describe("bad words: indexed phrases find exactly what the full scan found", () => {
  it("same verdict as the naive scan on a corpus of phrases, look-alikes and stretched letters", async () => {
    const vocabulary = ["go", "away", "you", "fool", "big", "nose", "darn", "it", "sh1t", "heck", "no", "way", "cr4p", "dummy", "stop", "it", "now", "ok"];
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % n);
    const phrase = (length: number) => Array.from({ length }, () => vocabulary[random(vocabulary.length)] as string).join(" ");
    const entries = [...Array.from({ length: 300 }, () => phrase(2 + random(3))), "heck", "dummy"];
    // A budget too large to cut anything: this test is about the verdicts.
    const moderation = new ModerationModule({ budget: new ChatBudget({ messageMs: 1e9, windowBudgetMs: 1e9 }) });
    moderation.set("chan-1", { bad_words: { enabled: true, words: entries } });
    let blocked = 0;
    for (let i = 0; i < 400; i++) {
      const words = Array.from({ length: 1 + random(12) }, () => vocabulary[random(vocabulary.length)] as string);
      if (random(3) === 0) words[random(words.length)] = "sooo";
      const message = words.map((w) => (random(4) === 0 ? w.replace(/o/g, "ooo").toUpperCase() : w)).join(random(2) === 0 ? " " : " ... ");
      const expected = naiveBadWord(entries, message);
      const verdict = await moderation.check(chatEvent(message));
      expect(verdict?.detail ?? null, message).toBe(expected);
      if (expected !== null) blocked++;
    }
    // The corpus exercises both outcomes.
    expect(blocked).toBeGreaterThan(40);
    expect(blocked).toBeLessThan(390);
  });
});

describe("auto-moderation's check on a budget of its own (the dashboard's dry run)", () => {
  it("finds the pattern the channel's spent budget skips, and spends none of the channel's time", async () => {
    const cuts: ChatBudgetCut[] = [];
    // The channel's budget: every clock read costs 4 ms, so 10 patterns are past a 10 ms message budget.
    const channelBudget = new ChatBudget({ now: steppingClock(4), messageMs: 10, windowBudgetMs: 1_000, onCut: (cut) => cuts.push(cut) });
    const moderation = new ModerationModule({ budget: channelBudget });
    const patterns = [...Array.from({ length: 9 }, (_, i) => `nomatch${i}`), "b[a4]d"];
    moderation.set("chan-1", { bad_words: { enabled: true, patterns } });
    expect(await moderation.check(chatEvent("that was b4d"))).toBeNull();
    expect(cuts).toHaveLength(1);
    const dryRun = new ChatBudget({ now: steppingClock(4), messageMs: 250, windowBudgetMs: 1_000 });
    expect(await moderation.check(chatEvent("that was b4d"), { budget: dryRun })).toMatchObject({ rule: "bad_words" });
    // The channel's budget saw no further message.
    expect(cuts).toHaveLength(1);
    expect(channelBudget.cuts).toBe(1);
  });
});
