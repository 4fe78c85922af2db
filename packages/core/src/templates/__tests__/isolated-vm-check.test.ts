import { describe, expect, it } from "vitest";
import { SANDBOX_UNAVAILABLE_CODE, assertIsolatedVmInstalled } from "@ovation/core/templates";

describe("isolated-vm, the optional peer of the template sandbox", () => {
  it("is found when installed", () => {
    expect(() => assertIsolatedVmInstalled()).not.toThrow();
  });

  it("missing, makes the sandbox fail with a clear error saying what to install", () => {
    const missing = () => {
      throw Object.assign(new Error("Cannot find module 'isolated-vm'"), { code: "MODULE_NOT_FOUND" });
    };
    expect(() => assertIsolatedVmInstalled(missing)).toThrow(expect.objectContaining({ code: SANDBOX_UNAVAILABLE_CODE, message: expect.stringContaining("npm install isolated-vm@^5") }));
  });
});
