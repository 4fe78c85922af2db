import { describe, expect, it } from "vitest";
import {
  NEUTRAL_ALERT_TYPES,
  builtInPlatforms,
  buildDefaultAlertSet,
  catalogWithPlatforms,
  exampleAlertData,
  pluginPlatform,
  resolveAlert,
} from "@ovation/core/alerts";

describe("open platform registry", () => {
  it("gives a platform declared by metadata.platform alone the platform-neutral types with default texts", () => {
    const fake = pluginPlatform("fakechat", undefined);
    expect(fake).toMatchObject({ id: "fakechat", name: "fakechat", builtIn: false });
    expect(fake.alerts.map((a) => a.type)).toEqual(["follow", "subscribe", "re-subscribe", "gift-subscribe", "raid", "donation"]);
    for (const alert of NEUTRAL_ALERT_TYPES) expect(alert.default.title, alert.type).toMatch(/\{\{\w+\}\}/);
  });

  it("keeps a built-in platform's catalog entry and name", () => {
    expect(pluginPlatform("kick", { name: "Other", alerts: [] })).toEqual({ id: "kick", name: "Kick", builtIn: true, alerts: [] });
  });

  it("adds the declared types of a plugin platform to the catalog, its default set and its examples", () => {
    const platforms = [
      ...builtInPlatforms(),
      pluginPlatform("fakechat", {
        name: "FakeChat",
        alerts: [
          {
            type: "follow",
            parameters: [{ name: "name", type: "string", default: "", example: "Fan", description: "Who followed", conditional: false }],
            default: { title: "{{name}} joined FakeChat" },
          },
        ],
      }),
    ];
    const catalog = catalogWithPlatforms(platforms);
    const follow = catalog.find((t) => t.type === "follow");
    expect(follow?.platforms.map((p) => p.platform)).toEqual(["twitch", "youtube", "kick", "fakechat"]);
    expect(catalog.find((t) => t.type === "raid")?.platforms.map((p) => p.platform)).toEqual(["twitch"]);
    expect(exampleAlertData("follow", "fakechat", catalog)).toEqual({ name: "Fan" });

    const set = buildDefaultAlertSet({ id: 1, user_id: 1 }, { catalog });
    expect(set.defaults.filter((d) => d.platform === "fakechat").map((d) => d.type)).toEqual(["follow"]);
    const shown = resolveAlert(set, { type: "follow", platform: "fakechat", data: { name: "Fan" }, random: 1 });
    expect(shown.disabled).toBe(false);
    if (!shown.disabled) expect(shown.template.title).toBe("{{name}} joined FakeChat");
    // A variation's condition can name the plugin platform.
    const pinned = {
      ...set,
      variations: [...set.variations, { name: "FakeChat follows", conditions: { "===": [{ var: "platform" }, "fakechat"] }, overrides: { font_color: "#00ff00" } }],
    };
    const styled = resolveAlert(pinned, { type: "follow", platform: "fakechat", data: { name: "Fan" }, random: 1 });
    expect(styled.disabled ? null : styled.template.font_color).toBe("#00ff00");
    const other = resolveAlert(pinned, { type: "follow", platform: "twitch", data: { name: "Fan" }, random: 1 });
    expect(other.disabled ? null : other.template.font_color).not.toBe("#00ff00");
    // Without the plugin platform in the catalog the set has no type default: not shown.
    expect(resolveAlert(buildDefaultAlertSet({ id: 1, user_id: 1 }), { type: "follow", platform: "fakechat", data: {}, random: 1 }).disabled).toBe(true);
  });

  it("lets a plugin of a built-in platform without catalog entries (TikTok) declare its alert types, never replacing the catalog's", () => {
    const declared = {
      alerts: [
        { type: "donation", parameters: [], default: { title: "{{name}} sent a gift" } },
        { type: "follow", parameters: [], default: { title: "ignored: Kick follows are in the catalog" } },
      ],
    };
    const tiktok = pluginPlatform("tiktok", declared);
    expect(tiktok).toMatchObject({ id: "tiktok", name: "TikTok", builtIn: true });
    expect(tiktok.alerts.map((a) => a.type)).toEqual(["donation", "follow"]);
    expect(pluginPlatform("kick", declared).alerts.map((a) => a.type)).toEqual(["donation"]);
    const catalog = catalogWithPlatforms([...builtInPlatforms().filter((p) => p.id !== "tiktok"), tiktok]);
    expect(catalog.find((t) => t.type === "donation")?.platforms.map((p) => p.platform)).toContain("tiktok");
    const set = buildDefaultAlertSet({ id: 1, user_id: 1 }, { catalog });
    const shown = resolveAlert(set, { type: "donation", platform: "tiktok", data: { name: "Fan" }, random: 1 });
    expect(shown.disabled ? null : shown.template.title).toBe("{{name}} sent a gift");
  });
});
