import { describe, expect, it } from "vitest";
import { foldCase, readTwigRegex } from "../isolate/regex.js";

/**
 * The reading of `matches` patterns (isolate/regex.ts). The linear-time engine the sandbox runs has
 * no `i` flag, so `i` is applied by rewriting the pattern: it must match exactly what JavaScript's
 * own `i` flag matches, on the patterns templates use.
 */
describe("Twig regular expressions", () => {
  it("reads delimiters, bracket pairs and flags", () => {
    expect(readTwigRegex("/a+/")).toEqual({ pattern: "a+", flags: "" });
    expect(readTwigRegex("{^x$}ms")).toEqual({ pattern: "^x$", flags: "ms" });
    expect(readTwigRegex("#a/b#u")).toEqual({ pattern: "a/b", flags: "" });
    expect(readTwigRegex("(1)i").pattern).toBe("1");
    expect(() => readTwigRegex("/o")).toThrow(/no ending delimiter/);
    expect(() => readTwigRegex("abc")).toThrow(/delimiter must not be a letter/);
    expect(() => readTwigRegex("/a/g")).toThrow(/unsupported flags "g"/);
  });

  it("folds case in literals and classes, leaving escapes, quantifiers and group names alone", () => {
    expect(foldCase("ab")).toBe("[aA][bB]");
    expect(foldCase("[a-c_]")).toBe("[a-cA-C_]");
    expect(foldCase("[^xY]")).toBe("[^xXyY]");
    expect(foldCase("\\d{2,3}\\bz")).toBe("\\d{2,3}\\b[zZ]");
    expect(foldCase("(?<word>h)\\u0041")).toBe("(?<word>[hH])\\u0041");
    expect(foldCase("1 + 2")).toBe("1 + 2");
  });

  it("matches with the folded pattern exactly what the i flag matches", () => {
    const patterns = ["^hello$", "[a-f]+o", "x[^a-c]y", "(?<n>ab)+c", "\\w+@[a-z]+\\.com", "é", "[A-Z]{2}", "^(foo|bar)baz"];
    const inputs = ["HELLO", "hello", "HeLLo!", "FOO", "xdy", "xDy", "xBy", "ABABc", "ababC", "Joe@Example.COM", "É", "é", "aZ", "Zz", "FOObaz", "barBAZ", "qux"];
    for (const pattern of patterns) {
      const folded = new RegExp(foldCase(pattern));
      const native = new RegExp(pattern, "i");
      for (const input of inputs) expect(folded.test(input), `${pattern} on ${input}`).toBe(native.test(input));
    }
  });
});
