import fc from "fast-check";
import jsonLogic from "json-logic-js";
import type { RulesLogic } from "json-logic-js";
import { describe, expect, it } from "vitest";
import { MASK_WIDTH, compileCondition, compileConditionMask, conditionIssues, conditionSchema, conditionVariables, forcedValues } from "../conditions.js";
import type { Condition } from "../conditions.js";
import { ALERT_LIMITS } from "../limits.js";

const variables = ["type", "platform", "amount", "name", "tier", "is_gift", "random", "user.name", "missing"];

const literal = fc.oneof(
  fc.integer({ min: -5, max: 2000 }),
  fc.constantFrom("twitch", "youtube", "cheer", "follow", "1000", "2000", "", "abc", "Alice"),
  fc.boolean(),
  fc.constant(null),
);
const variable = fc.oneof(
  fc.constantFrom(...variables).map((name) => ({ var: name })),
  fc.tuple(fc.constantFrom(...variables), literal).map(([name, fallback]) => ({ var: [name, fallback] })),
);
const { condition } = fc.letrec<{ condition: Condition; operand: unknown }>((tie) => ({
  operand: fc.oneof({ depthSize: "small", withCrossShrink: true, maxDepth: 3, depthIdentifier: "cond" }, literal, variable, tie("condition")),
  condition: fc.oneof(
    { depthSize: "small", withCrossShrink: true, maxDepth: 3, depthIdentifier: "cond" },
    fc.tuple(fc.constantFrom("==", "===", "!=", "!==", ">", ">=", "<", "<="), tie("operand"), tie("operand")).map(
      ([op, a, b]) => ({ [op]: [a, b] }),
    ),
    fc.tuple(fc.constantFrom("<", "<="), tie("operand"), tie("operand"), tie("operand")).map(([op, a, b, c]) => ({ [op]: [a, b, c] })),
    fc.array(tie("condition"), { minLength: 1, maxLength: 3 }).map((parts) => ({ and: parts })),
    fc.array(tie("condition"), { minLength: 1, maxLength: 3 }).map((parts) => ({ or: parts })),
    tie("condition").map((part) => ({ "!": [part] })),
    tie("condition").map((part) => ({ "!!": [part] })),
    fc.tuple(tie("operand"), fc.constantFrom(["twitch", "kick"], ["1000", "2000"], "abcAlice")).map(([a, list]) => ({ in: [a, list] })),
    fc.tuple(tie("condition"), tie("condition"), tie("condition")).map(([a, b, c]) => ({ if: [a, b, c] })),
  ),
}));
const context = fc.record(
  {
    type: fc.constantFrom("cheer", "follow", "raid"),
    platform: fc.constantFrom("twitch", "youtube", "kick"),
    amount: fc.oneof(fc.integer({ min: 0, max: 3000 }), fc.constant("1500")),
    name: fc.constantFrom("Alice", "abc", ""),
    tier: fc.constantFrom("1000", "2000", "3000"),
    is_gift: fc.boolean(),
    random: fc.integer({ min: 1, max: 100 }),
    user: fc.record({ name: fc.constantFrom("Alice", "Bob") }),
  },
  { requiredKeys: ["type", "platform", "random"] },
);

describe("compiled conditions", () => {
  // Data values are never null here: for `{"var":["x", d]}` with x null, json-logic-engine answers d
  // and json-logic-js null (documented in docs/alerts.md; tested below).
  it("agree with json-logic-js (the reference interpreter) on generated conditions and alerts", () => {
    fc.assert(
      fc.property(condition, context, (logic, data) => {
        expect(conditionIssues(logic)).toEqual([]);
        const expected = jsonLogic.truthy(jsonLogic.apply(logic as RulesLogic, data));
        expect(compileCondition(logic)(data)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it("read dotted paths and var defaults", () => {
    expect(compileCondition({ "===": [{ var: "user.name" }, "Alice"] })({ user: { name: "Alice" } })).toBe(true);
    expect(compileCondition({ ">=": [{ var: ["amount", 0] }, 0] })({})).toBe(true);
    // The default is for a missing value only (json-logic-js): a stored null stays null.
    expect(compileCondition({ "===": [{ var: ["amount", 7] }, 7] })({})).toBe(true);
    expect(compileCondition({ "===": [{ var: ["amount", 7] }, null] })({ amount: null })).toBe(true);
    expect(compileCondition({ "===": [{ var: ["amount.value", 7] }, 7] })({ amount: null })).toBe(true);
    expect(compileCondition({ "===": [{ var: "amount" }, null] })({ amount: null })).toBe(true);
  });

  it("treat {} as always and never throw on odd data", () => {
    expect(compileCondition({})({})).toBe(true);
    const f = compileCondition({ in: [{ var: "name" }, { var: "list" }] });
    expect(f({ name: "a", list: 5 })).toBe(false);
    expect(compileCondition({ ">": [{ var: "__proto__" }, 1] })(Object.create(null) as Record<string, unknown>)).toBe(false);
  });
});

describe("compiled condition masks", () => {
  it("bit i is exactly condition i, as compileCondition and json-logic-js answer it (property)", () => {
    fc.assert(
      fc.property(fc.array(condition, { maxLength: MASK_WIDTH }), fc.array(context, { minLength: 1, maxLength: 5 }), (logics, datas) => {
        const mask = compileConditionMask(logics);
        for (const data of datas) {
          const expected = logics.reduce((sum, logic, i) => sum + (jsonLogic.truthy(jsonLogic.apply(logic as RulesLogic, data)) ? 2 ** i : 0), 0);
          expect(mask(data)).toBe(expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("falls back per condition when one throws, and refuses more than MASK_WIDTH conditions", () => {
    const mask = compileConditionMask([{ "===": [{ var: "a" }, 1] }, { in: ["x", { var: "n" }] }, {}]);
    expect(mask({ a: 1, n: 5 })).toBe(1 + 4);
    expect(mask({ a: 1, n: "xyz" })).toBe(7);
    expect(typeof mask({ a: 2, n: ["x"] })).toBe("number");
    expect(() => compileConditionMask(Array.from({ length: MASK_WIDTH + 1 }, () => ({})))).toThrow(RangeError);
  });

  it("lists the top-level variables conditions read", () => {
    expect(conditionVariables([{ and: [{ ">=": [{ var: "amount" }, 1] }, { "===": [{ var: ["user.name", "x"] }, "a"] }] }, {}])).toEqual(new Set(["amount", "user"]));
    expect(conditionVariables([{ "!!": [{ var: "" }] }])).toBeUndefined();
    expect(conditionVariables([{ missing: ["a"] }])).toBeUndefined();
  });
});

describe("condition validation at save time", () => {
  it("rejects an unknown operator with its path", () => {
    const issues = conditionIssues({ and: [{ "===": [{ var: "type" }, "cheer"] }, { regex: [{ var: "name" }, ".*"] }] });
    expect(issues).toHaveLength(1);
    expect(issues[0]?.rule).toBe("operator");
    expect(issues[0]?.path).toEqual(["and", 1, "regex"]);
    expect(issues[0]?.message).toContain('unknown operator "regex"');
  });

  it("rejects engine-only operators that are not JsonLogic", () => {
    for (const op of ["throw", "try", "preserve", "val", "keys", "length"]) {
      expect(conditionIssues({ [op]: [1] })[0]?.rule).toBe("operator");
    }
  });

  it("bounds depth and size", () => {
    let deep: unknown = { var: "amount" };
    for (let i = 0; i < ALERT_LIMITS.conditionDepth; i++) deep = { "!": [deep] };
    expect(conditionIssues(deep).map((i) => i.rule)).toContain("depth");
    const wide = { or: Array.from({ length: ALERT_LIMITS.conditionNodes }, (_, i) => ({ "===": [{ var: "amount" }, i] })) };
    expect(conditionIssues(wide).map((i) => i.rule)).toContain("size");
  });

  it("stops on hostile nesting of arrays without deep recursion", () => {
    let nested: unknown = 1;
    for (let i = 0; i < 100_000; i++) nested = [nested];
    const issues = conditionIssues({ or: nested });
    expect(issues.map((i) => i.rule)).toEqual(["depth"]);
    expect(conditionSchema.safeParse({ or: nested }).success).toBe(false);
  });

  it("checks var, object shape and literals", () => {
    expect(conditionIssues({ var: { x: 1 } })[0]?.rule).toBe("shape");
    expect(conditionIssues({ "===": [1, 2], "!==": [1, 2] })[0]?.rule).toBe("shape");
    expect(conditionIssues({ "===": ["x".repeat(300), 1] })[0]?.rule).toBe("literal");
    // A literal is a valid JsonLogic rule (an array of rules evaluates to an array: truthy when not empty).
    expect(conditionIssues([{ var: "a" }])).toEqual([]);
    expect(conditionIssues([{ var: { x: 1 } }])[0]?.rule).toBe("shape");
  });

  it("the zod schema reports issues at their path", () => {
    const result = conditionSchema.safeParse({ or: [{ foo: 1 }] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["or", 0, "foo"]);
  });

  it("accepts every generated condition of the allowed grammar", () => {
    fc.assert(fc.property(condition, (logic) => conditionSchema.safeParse(logic).success), { numRuns: 300 });
  });
});

describe("forcedValues (variation pruning)", () => {
  it("finds the type a condition pins, through and/or/in", () => {
    expect(forcedValues({ "===": [{ var: "type" }, "cheer"] }, "type")).toEqual(new Set(["cheer"]));
    expect(forcedValues({ and: [{ ">=": [{ var: "amount" }, 5] }, { "==": ["raid", { var: "type" }] }] }, "type")).toEqual(new Set(["raid"]));
    expect(forcedValues({ or: [{ "===": [{ var: "type" }, "a"] }, { in: [{ var: "type" }, ["b", "c"]] }] }, "type")).toEqual(new Set(["a", "b", "c"]));
    expect(forcedValues({ or: [{ "===": [{ var: "type" }, "a"] }, { ">": [{ var: "amount" }, 1] }] }, "type")).toBeUndefined();
    expect(forcedValues({ "!": [{ "===": [{ var: "type" }, "a"] }] }, "type")).toBeUndefined();
  });

  it("never prunes a variation that can match (property)", () => {
    fc.assert(
      fc.property(condition, context, (logic, data) => {
        const forced = forcedValues(logic, "type");
        if (forced && compileCondition(logic)(data)) expect(forced.has(data.type)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
