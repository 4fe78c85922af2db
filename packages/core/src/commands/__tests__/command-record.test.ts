import { describe, expect, it } from "vitest";
import { botCommandSchema, COMMAND_LIMITS } from "../command-record.js";
import { CommandRegex } from "../command-regex.js";
import { PERMISSION_LEVELS } from "../permission-levels.js";

function issuesOf(input: unknown): string[] {
  const result = botCommandSchema.safeParse(input);
  expect(result.success).toBe(false);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

describe("botCommandSchema", () => {
  it("fills defaults and normalises names like the reference registration example", () => {
    const record = botCommandSchema.parse({ command: "bal", response: "{{ proxy_pass('https://example.com/api/commands') }}", command_aliases: ["$"] });
    expect(record).toEqual({
      command: "bal",
      commands: ["bal", "$"],
      command_aliases: ["$"],
      response: "{{ proxy_pass('https://example.com/api/commands') }}",
      command_regex: null,
      permissions: 0,
      price: 0,
      send_as: "say",
      enable_when: "both",
      user_cooldown: 0,
      global_cooldown: 5,
      is_visible: true,
    });
  });

  it("merges commands and aliases, strips a leading !, drops case-insensitive duplicates", () => {
    const record = botCommandSchema.parse({ command: "!Hug", commands: ["hug", "cuddle"], command_aliases: ["!CUDDLE", "squeeze"], response: "hi" });
    expect(record.command).toBe("Hug");
    expect(record.commands).toEqual(["Hug", "cuddle", "squeeze"]);
    expect(record.command_aliases).toEqual(["cuddle", "squeeze"]);
  });

  it("accepts permission level names and maps them to integers", () => {
    for (const [name, level] of Object.entries(PERMISSION_LEVELS)) {
      expect(botCommandSchema.parse({ command: "x", response: "y", permissions: name }).permissions).toBe(level);
    }
    expect(botCommandSchema.parse({ command: "x", response: "y", permissions: 3 }).permissions).toBe(3);
  });

  it("names each bad field and its rule", () => {
    const issues = issuesOf({
      command: "two words",
      response: " ",
      permissions: 7,
      price: -1,
      send_as: "whisper",
      enable_when: "sometimes",
      user_cooldown: 1.5,
      global_cooldown: COMMAND_LIMITS.cooldownSeconds + 1,
      is_visible: "yes",
    });
    const fields = issues.map((i) => i.split(":")[0]);
    for (const field of ["command", "response", "permissions", "price", "send_as", "enable_when", "user_cooldown", "global_cooldown", "is_visible"]) {
      expect(fields).toContain(field);
    }
    expect(issues.find((i) => i.startsWith("command:"))).toMatch(/one word/);
  });

  it("refuses too many aliases, too long names and responses", () => {
    const aliases = Array.from({ length: COMMAND_LIMITS.aliases + 1 }, (_, i) => `a${i}`);
    expect(issuesOf({ command: "x", response: "y", command_aliases: aliases })[0]).toMatch(/^command_aliases/);
    expect(issuesOf({ command: "x".repeat(33), response: "y" })[0]).toMatch(/^command: must be at most 32/);
    expect(issuesOf({ command: "x", response: "y".repeat(COMMAND_LIMITS.responseLength + 1) })[0]).toMatch(/^response: must be at most/);
  });

  it("refuses a command_regex RE2 cannot run, with the reason", () => {
    expect(issuesOf({ command: "x", response: "y", command_regex: "(a)\\1" })[0]).toMatch(/^command_regex: command_regex is not a valid RE2 pattern/);
    expect(issuesOf({ command: "x", response: "y", command_regex: "(?=a)b" })[0]).toMatch(/RE2/);
    expect(botCommandSchema.parse({ command: "x", response: "y", command_regex: "" }).command_regex).toBeNull();
  });
});

describe("CommandRegex", () => {
  it("runs a catastrophic pattern in linear time: (a+)+$ against 100,000 a's and a !", () => {
    const regex = CommandRegex.compile("(a+)+$");
    const input = `${"a".repeat(100_000)}!`;
    // A backtracking engine needs ~2^100000 steps here and would never return.
    expect(regex.test(input)).toBe(false);
    expect(regex.test("aaaa")).toBe(true);
    expect(CommandRegex.compile("(x+x+)+y").test("x".repeat(50_000))).toBe(false);
  });

  it("matches unanchored and supports RE2 flags", () => {
    expect(CommandRegex.compile("^!d(ice|6)\\b").test("!dice 20")).toBe(true);
    expect(CommandRegex.compile("(?i)^!DICE").test("!dice")).toBe(true);
    expect(CommandRegex.compile("^!dice$").test("!dice 20")).toBe(false);
  });

  it("refuses patterns that are too long", () => {
    expect(() => CommandRegex.compile("a".repeat(201))).toThrowError(/longer than 200/);
  });
});
