import { compileCondition, conditionSchema } from "@ovation/core/alerts";
import { describe, expect, it } from "vitest";
import { describeCondition, fromJsonLogic, toJsonLogic } from "../app/pages/alert-sets/conditions.js";
import type { Clause } from "../app/pages/alert-sets/conditions.js";

const CLAUSES: Clause[] = [
  { kind: "type", value: "cheer" },
  { kind: "platform", value: "twitch" },
  { kind: "range", variable: "amount", min: 100, max: 999 },
  { kind: "compare", variable: "months", op: ">=", value: 12 },
  { kind: "compare", variable: "tier", op: "==", value: "3000" },
  { kind: "random", percent: 25 },
];

describe("condition builder model", () => {
  it("writes JsonLogic the engine accepts and reads it back unchanged", () => {
    for (let n = 0; n <= CLAUSES.length; n += 1) {
      const clauses = CLAUSES.slice(0, n);
      const rule = toJsonLogic(clauses);
      expect(conditionSchema.safeParse(rule).success).toBe(true);
      expect(fromJsonLogic(rule)).toEqual(clauses);
    }
  });

  it("means what it says when the engine evaluates it", () => {
    const rule = toJsonLogic([CLAUSES[0] as Clause, CLAUSES[2] as Clause, CLAUSES[5] as Clause]);
    const test = compileCondition(rule);
    const context = (amount: number, random: number) => ({ type: "cheer", platform: "twitch", enabled: true, random, amount });
    expect(test(context(500, 10))).toBe(true);
    expect(test(context(99, 10))).toBe(false);
    expect(test(context(999, 25))).toBe(true);
    expect(test(context(500, 26))).toBe(false);
  });

  it("leaves conditions it cannot show to the JSON editor", () => {
    expect(fromJsonLogic({ or: [{ "===": [{ var: "type" }, "cheer"] }, { "===": [{ var: "type" }, "raid"] }] })).toBeNull();
    expect(fromJsonLogic({ "===": [{ var: ["amount", 0] }, 5] })).toBeNull();
    expect(describeCondition({ or: [] })).toBe("custom condition");
    expect(describeCondition({})).toBe("every alert");
    expect(describeCondition(toJsonLogic([CLAUSES[0] as Clause, CLAUSES[2] as Clause]))).toBe("type is cheer and amount between 100 and 999");
  });
});
