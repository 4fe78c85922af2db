import jsonLogic from "json-logic-js";
import type { RulesLogic } from "json-logic-js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { compileCondition, compileConditionMask } from "../conditions.js";
import { buildDefaultAlertSet } from "../default-set.js";
import { compileAlertSet } from "../resolve.js";

// The browser-source page runs under a Content-Security-Policy without 'unsafe-eval', where
// json-logic-engine's code generation throws EvalError. Conditions must still work there.
describe("conditions where eval is forbidden", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("fall back to the engine's interpreter with the same answers", () => {
    const evalSpy = vi.fn(() => {
      throw new EvalError("Refused to evaluate a string as JavaScript (CSP)");
    });
    vi.stubGlobal("eval", evalSpy);
    const conditions = [
      { and: [{ "===": [{ var: "platform" }, "twitch"] }, { ">=": [{ var: "amount" }, 1000] }] },
      { "!": [{ ">=": [{ var: "name" }, 5] }] },
      { in: [{ var: "tier" }, ["2000", "3000"]] },
      { "<": [1, { var: "amount" }, 3000] },
      {},
    ];
    const contexts = [
      { platform: "twitch", amount: 1500, name: "abc", tier: "2000" },
      { platform: "kick", amount: 2, name: "abc", tier: "1000" },
    ];
    const mask = compileConditionMask(conditions);
    for (const context of contexts) {
      let expected = 0;
      conditions.forEach((condition, i) => {
        const reference = jsonLogic.truthy(jsonLogic.apply(condition as RulesLogic, context));
        expect(compileCondition(condition)(context)).toBe(reference);
        if (reference) expected += 2 ** i;
      });
      expect(mask(context)).toBe(expected);
    }
    const set = compileAlertSet(buildDefaultAlertSet({ id: 1, user_id: 1 }));
    expect(set.resolve({ type: "cheer", platform: "twitch", data: { amount: 5 }, random: 1 }).disabled).toBe(false);
    expect(evalSpy).toHaveBeenCalled();
  });
});
