import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ALERT_ERROR_CODES } from "../alert-errors.js";

const doc = readFileSync(new URL("../../../../../docs/alerts.md", import.meta.url), "utf8");
const sourceDir = new URL("../", import.meta.url);

describe("alert error codes", () => {
  it.each(Object.values(ALERT_ERROR_CODES))("%s is documented in docs/alerts.md", (code) => {
    expect(doc).toContain(code);
  });

  it("every OVATION_ERR_ALERTS_* code in the alert sources is in the registry", () => {
    const registered = new Set<string>(Object.values(ALERT_ERROR_CODES));
    for (const file of readdirSync(sourceDir).filter((f) => f.endsWith(".ts"))) {
      const source = readFileSync(new URL(file, sourceDir), "utf8");
      for (const match of source.matchAll(/OVATION_ERR_ALERTS_[A-Z0-9_]+/g)) expect(registered.has(match[0])).toBe(true);
    }
  });
});
