import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { YOUTUBE_ERROR_CODES } from "../errors.js";
import { YouTubePlugin } from "../plugin.js";

describe("error codes and settings", () => {
  it("documents each error code in the README", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    for (const code of Object.values(YOUTUBE_ERROR_CODES)) expect(readme).toContain(`\`${code}\``);
  });

  it("names every invalid setting", () => {
    expect(
      () => new YouTubePlugin({ channelId: "", clientId: "c", clientSecret: "s", tokens: { refreshToken: "" }, quota: { dailyUnits: -1 } }),
    ).toThrow(/settings\.channelId: .*settings\.tokens\.refreshToken: .*settings\.quota\.dailyUnits: /);
  });
});
