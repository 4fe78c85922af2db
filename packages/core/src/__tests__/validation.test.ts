import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldErrorsFromZod, fieldErrorsMessage, parseOrThrow, ValidationError } from "../validation.js";
import { OvationError } from "../errors.js";

const schema = z.object({
  name: z.string().min(1).max(5),
  count: z.number().int().min(0),
  color: z.string().regex(/^#[0-9a-f]{6}$/, { error: "must be #rrggbb" }),
  kind: z.enum(["a", "b"]),
  tags: z.array(z.string()).max(2),
  nested: z.strictObject({ on: z.boolean() }),
  pick: z.union([z.literal("x"), z.strictObject({ v: z.number() })]),
});

describe("fieldErrorsFromZod (Laravel-style 422 errors)", () => {
  it("maps every issue to its dotted path with a message naming the rule", () => {
    const result = schema.safeParse({ name: "", count: 1.5, color: "red", kind: "c", tags: ["a", "b", "c"], nested: { on: "yes", extra: 1 }, pick: { v: "1" } });
    expect(result.success).toBe(false);
    const errors = fieldErrorsFromZod(result.error!);
    expect(errors).toEqual({
      name: ["The name field must be at least 1 characters (rule: filled)."],
      count: ["The count field must be an integer (rule: integer)."],
      color: ["The color field must be #rrggbb (rule: format)."],
      kind: ['The kind field must be one of "a", "b" (rule: in).'],
      tags: ["The tags field must be at most 2 items (rule: max)."],
      "nested.on": ["The nested.on field must be of type boolean, not string (rule: boolean)."],
      "nested.extra": ["The nested.extra field is not allowed here (rule: unknown_field)."],
      "pick.v": ["The pick.v field must be of type number, not string (rule: number)."],
    });
    expect(fieldErrorsMessage(errors)).toBe("The name field must be at least 1 characters (rule: filled). (and 7 more errors)");
  });

  it("reports missing fields as required and the root as (root)", () => {
    expect(fieldErrorsFromZod(schema.safeParse({}).error!)["name"]).toEqual(["The name field is required (rule: required)."]);
    expect(fieldErrorsFromZod(schema.safeParse(5).error!)).toEqual({ "(root)": ["The (root) field must be of type object, not number (rule: object)."] });
  });

  it("parseOrThrow returns the value or throws a ValidationError (an OvationError) with the field errors", () => {
    expect(parseOrThrow(z.number(), 3)).toBe(3);
    try {
      parseOrThrow(z.object({ a: z.number() }), { a: "x" }, "OVATION_ERR_TEST_BAD");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toBeInstanceOf(OvationError);
      const e = error as ValidationError;
      expect(e.code).toBe("OVATION_ERR_TEST_BAD");
      expect(e.errors).toEqual({ a: ["The a field must be of type number, not string (rule: number)."] });
      expect(e.details["errors"]).toEqual(e.errors);
    }
  });

  it("never throws and always yields at least one message per failing input (property)", () => {
    fc.assert(
      fc.property(fc.anything(), (input) => {
        const result = schema.safeParse(input);
        if (result.success) return;
        const errors = fieldErrorsFromZod(result.error);
        expect(Object.values(errors).flat().length).toBeGreaterThan(0);
        for (const messages of Object.values(errors)) for (const m of messages) expect(m).toMatch(/\(rule: [a-z_]+\)\.$/);
      }),
      { numRuns: 500 },
    );
  });
});
