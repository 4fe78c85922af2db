import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TEMPLATE_ERROR_CODES } from "../template-errors.js";

const docs = readFileSync(new URL("../../../../../docs/templates.md", import.meta.url), "utf8");

describe("error codes of templates", () => {
  it("has the eight codes", () => {
    expect(Object.keys(TEMPLATE_ERROR_CODES)).toHaveLength(8);
  });
  it.each(Object.keys(TEMPLATE_ERROR_CODES))("%s is documented in docs/templates.md", (code) => {
    expect(docs).toContain(`\`${code}\``);
  });
});
