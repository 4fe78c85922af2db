import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { IDENTITY_ERROR_CODES, IdentityError } from "../identity-errors.js";

describe("identity error codes", () => {
  const doc = readFileSync(new URL("../../../../../docs/identity.md", import.meta.url), "utf8");

  it("documents every code with its status in docs/identity.md", () => {
    for (const [code, entry] of Object.entries(IDENTITY_ERROR_CODES)) {
      expect(doc, code).toContain(`| \`${code}\` | ${entry.status} |`);
    }
  });

  it("builds Laravel-like bodies with the code", () => {
    const error = new IdentityError("OVATION_ERR_IDENTITY_VALIDATION", { message: "The email field is required.", errors: { email: ["The email field is required."] } });
    expect(error.status).toBe(422);
    expect(error.toBody()).toEqual({ message: "The email field is required.", code: "OVATION_ERR_IDENTITY_VALIDATION", errors: { email: ["The email field is required."] } });
    expect(new IdentityError("OVATION_ERR_IDENTITY_UNAUTHENTICATED").toBody()).toEqual({ message: "Unauthenticated.", code: "OVATION_ERR_IDENTITY_UNAUTHENTICATED" });
  });
});
