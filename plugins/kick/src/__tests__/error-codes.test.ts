import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { KICK_ERROR_CODES } from "../errors.js";
import { KickPlugin } from "../plugin.js";

describe("error codes and settings", () => {
  it("documents each error code in the README", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    for (const code of Object.values(KICK_ERROR_CODES)) expect(readme).toContain(`\`${code}\``);
  });

  it("names every invalid setting", () => {
    expect(() => new KickPlugin({ channelId: "", clientId: "c", clientSecret: "s", tokens: { refreshToken: "" }, mode: "pusher" })).toThrow(
      /settings\.channelId: .*settings\.tokens\.refreshToken: /,
    );
    expect(() => new KickPlugin({ channelId: "1", clientId: "c", clientSecret: "s", mode: "pusher" })).toThrow(/settings\.chatroomId: is required in pusher mode/);
    expect(() => new KickPlugin({ channelId: "1", clientId: "c", clientSecret: "s", webhookPublicKey: "-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----" })).toThrow(
      /settings\.webhookPublicKey: /,
    );
  });
});
