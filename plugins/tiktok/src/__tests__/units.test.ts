import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { commentFragments } from "../chat/map.js";
import { TIKTOK_ERROR_CODES, TikTokError } from "../errors.js";
import { mapTikTokMessage } from "../events.js";
import { LikeAggregator } from "../likes.js";
import { TikTokPlugin } from "../plugin.js";
import { giftStreakMessages } from "../testing/index.js";

const channel = { id: "1", platform_id: "6900000000000000001", username: "ovationstreamer", avatar_url: "" };

describe("TikTok plugin units", () => {
  it("documents every error code", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    for (const code of Object.values(TIKTOK_ERROR_CODES)) expect(readme).toContain(`\`${code}\``);
  });

  it("refuses bad options naming each one", () => {
    let error: unknown;
    try {
      new TikTokPlugin({ channelId: "1", uniqueId: "not a handle!", signServerUrl: "ftp://x", likeWindowSeconds: 0 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TikTokError);
    expect((error as TikTokError).code).toBe("OVATION_ERR_TIKTOK_CONFIG");
    expect((error as TikTokError).details["problems"]).toEqual([
      "settings.uniqueId: must be a TikTok @handle",
      "settings.signServerUrl: must be an http:// or https:// origin (no path)",
      "settings.likeWindowSeconds: Too small: expected number to be >0",
    ]);
  });

  it("refuses an answer once disconnected instead of dropping it silently", async () => {
    const plugin = new TikTokPlugin({ channelId: "1", uniqueId: "ovationstreamer" });
    await expect(plugin.send({ channel, text: "hi", send_as: "say", reply_to: null })).rejects.toMatchObject({ code: "OVATION_ERR_TIKTOK_DISCONNECTED" });
  });

  it("makes no alert for a streak step, and one for its end", () => {
    const steps = giftStreakMessages().map((m) => mapTikTokMessage(m.method, m.data, channel).kind);
    expect(steps).toEqual(["streaking", "streaking", "streaking", "streaking", "notification"]);
  });

  it("skips unknown and malformed messages without throwing", () => {
    expect(mapTikTokMessage("WebcastRoomUserSeqMessage", {}, channel)).toEqual({ kind: "ignored", method: "WebcastRoomUserSeqMessage" });
    for (const bad of [null, 42, "x", [], { common: { msgId: "abc" } }]) {
      expect(mapTikTokMessage("WebcastChatMessage", bad, channel).kind).toBe("malformed");
    }
  });

  it("places emotes between text pieces, clamping positions outside the text", () => {
    expect(commentFragments("", [])).toEqual([{ type: "text", text: "" }]);
    expect(commentFragments("ab", [{ index: 99, emote: { emoteId: "e" } }])).toEqual([
      { type: "text", text: "ab" },
      { type: "emote", text: "[e]", data: { platform: "tiktok", platform_id: "e" } },
    ]);
  });

  it("adds likes up per window and forgets them once flushed", () => {
    const likes = new LikeAggregator();
    expect(likes.add("a", "u1", "one", 5, 105, 1000)).toBe(true);
    expect(likes.add("b", "u2", "two", 3, null, 1001)).toBe(false);
    expect(likes.add("c", "u2", "two", 4, 112, 1002)).toBe(false);
    expect(likes.flush()).toEqual({ id: "a", count: 12, users: 2, top: { name: "two", count: 7 }, total: 112, startedAt: 1000 });
    expect(likes.flush()).toBeNull();
  });
});
