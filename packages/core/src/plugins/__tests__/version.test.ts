import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CORE_VERSION, coreSatisfies } from "../version.js";

describe("core version", () => {
  it("matches the package version", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(CORE_VERSION).toBe(pkg.version);
  });

  it("checks ranges with semver rules", () => {
    expect(coreSatisfies("0.1.0", "^0.1.0")).toBe(true);
    expect(coreSatisfies("0.2.0", "^0.1.0")).toBe(false);
    expect(coreSatisfies("1.4.0", ">=1.0.0 <2.0.0 || ^3.0.0")).toBe(true);
    expect(coreSatisfies("0.1.1-rc.1", "^0.1.0")).toBe(true);
  });
});
