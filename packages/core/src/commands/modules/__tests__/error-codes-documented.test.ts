import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GIVEAWAYS_ERROR_CODES } from "../giveaways/giveaway-record.js";
import { BOT_MODULE_ERROR_CODES } from "../module-error.js";
import { BOT_ROUTE_ERROR_CODES } from "../route-errors.js";
import { TIMERS_ERROR_CODES } from "../timers/timer-record.js";

const readme = readFileSync(new URL("../../../../README.md", import.meta.url), "utf8");

describe("error codes of the bot modules", () => {
  it.each(Object.values(BOT_MODULE_ERROR_CODES))("%s is documented in packages/core/README.md", (code) => {
    expect(readme).toContain(code);
  });

  it.each(Object.entries({ ...TIMERS_ERROR_CODES, ...GIVEAWAYS_ERROR_CODES, ...BOT_ROUTE_ERROR_CODES }))("the route code %s is documented in packages/core/README.md with its status", (code, entry) => {
    expect(readme).toContain(`\`${code}\` (${entry.status})`);
  });
});
