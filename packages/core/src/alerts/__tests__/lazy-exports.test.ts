import { types } from "node:util";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import * as alerts from "../index.js";
import { platformSchema } from "../../platforms.js";
import { overlayEffectSchema } from "../../overlays/effects.js";

describe("the alerts entry's exported schemas", () => {
  it("are every one built on first use (lazySchema), so importing the entry builds no zod schema", () => {
    const exported = Object.entries({ ...alerts, platformSchema, overlayEffectSchema }).filter(([, value]) => typeof value === "object" && value !== null && value instanceof z.ZodType);
    expect(exported.length).toBeGreaterThanOrEqual(20);
    const eager = exported.filter(([, value]) => !types.isProxy(value)).map(([name]) => name);
    expect(eager).toEqual([]);
  });
});
