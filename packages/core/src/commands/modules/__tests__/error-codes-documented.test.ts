import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BOT_MODULE_ERROR_CODES } from "../module-error.js";

const readme = readFileSync(new URL("../../../../README.md", import.meta.url), "utf8");

describe("error codes of the bot modules", () => {
  it.each(Object.values(BOT_MODULE_ERROR_CODES))("%s is documented in packages/core/README.md", (code) => {
    expect(readme).toContain(code);
  });
});
