import { readFileSync } from "node:fs";
import { PLUGIN_ERROR_CODES } from "@ovation/core";
import { describe, expect, it } from "vitest";
import { TWITCH_ERROR_CODES } from "../errors.js";

describe("error codes", () => {
  it("are each documented", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    for (const code of Object.values(TWITCH_ERROR_CODES)) expect(readme).toContain(`\`${code}\``);
    const guide = readFileSync(new URL("../../../../docs/writing-a-plugin.md", import.meta.url), "utf8");
    for (const code of Object.values(PLUGIN_ERROR_CODES)) expect(guide).toContain(`\`${code}\``);
  });
});
