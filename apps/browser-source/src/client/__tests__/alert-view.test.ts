import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ALERT_VIEW_LIMITS, fontFamilyList, hexColor, mediaUrl, toAlertView, volumeFraction } from "../alert-view.js";

/** The variant 2 example of the reference documentation (fixtures/alerts/reference-variant2.json). */
const referenceTemplate = (
  JSON.parse(readFileSync(new URL("../../../../../fixtures/alerts/reference-variant2.json", import.meta.url), "utf8")) as {
    request: { template: Record<string, unknown> };
  }
).request.template;

describe("toAlertView", () => {
  it("maps the reference's variant 2 example", () => {
    expect(toAlertView(referenceTemplate, { message: "Hello World!" })).toEqual({
      layout: "banner",
      image: "https://media.example.com/giphy-downsized.gif",
      sound: null,
      volume: 0,
      title: [{ text: "Custom Alert", fromData: false }],
      subtitle: [{ text: "Hello World!", fromData: true }],
      displayMs: 10000,
      font: {
        family: `"Montserrat", "Inter", sans-serif`,
        sizePx: 1.4 * 36,
        weight: 600,
        color: "#ffffff",
        highlightColor: "#8205b3",
        animation: "wiggle",
        delayMs: 0,
      },
      enter: "fade-in",
      leave: "fade-out",
    });
  });

  it("falls back to defaults for missing or unusable values instead of failing", () => {
    const view = toAlertView(
      {
        layout: "<script>",
        image_href: "javascript:alert(1)",
        sound_href: 42,
        display_time: "soon",
        font_color: "red; background: url(x)",
        font_family: "Evil\"; } body { display:none",
        font_size: -3,
        font_animation: "explode",
        animation_alert_enter: "teleport",
        title: null,
      },
      {},
    );
    expect(view.layout).toBe("image-above");
    expect(view.font.sizePx).toBe(ALERT_VIEW_LIMITS.defaultFontPx);
    expect(view.image).toBeNull();
    expect(view.sound).toBeNull();
    expect(view.displayMs).toBe(ALERT_VIEW_LIMITS.defaultDisplayMs);
    expect(view.font.color).toBe("#ffffff");
    expect(view.font.family).toBe(`"Inter", sans-serif`);
    expect(view.font.animation).toBe("none");
    expect(view.enter).toBe("fade-in");
    expect(view.title).toEqual([]);
  });

  it("draws a relative font size on the layout's base size, and a legacy pixel size as pixels", () => {
    expect(toAlertView({ font_size: 1 }, {}).font.sizePx).toBe(36);
    expect(toAlertView({ font_size: 0.5 }, {}).font.sizePx).toBe(18);
    expect(toAlertView({ font_size: 48 }, {}).font.sizePx).toBe(48);
  });

  it("reads the engine's defaults (em, ms, percent, animate.css names)", () => {
    const view = toAlertView(
      { display_time: 8000, layout: "image-left", volume: 50, font_size: 1, font_weight: 700, font_delay: 250, animation_alert_enter: "fadeInDown", animation_alert_leave: "fadeOut", font_animation: "rubberBand" },
      {},
    );
    expect(view.layout).toBe("image-left");
    expect(view.volume).toBe(0.5);
    expect(view.font.sizePx).toBe(36);
    expect(view.font.delayMs).toBe(250);
    expect(view.enter).toBe("fade-in-down");
    expect(view.leave).toBe("fade-out");
    expect(view.font.animation).toBe("rubber-band");
  });

  it("bounds display time, font size, weight and delay", () => {
    const short = toAlertView({ display_time: 5, font_size: 100_000, font_weight: 1234, font_delay: 1e9 }, {});
    expect(short.displayMs).toBe(ALERT_VIEW_LIMITS.minDisplayMs);
    expect(short.font.sizePx).toBe(ALERT_VIEW_LIMITS.maxFontPx);
    expect(short.font.weight).toBe(1000);
    expect(short.font.delayMs).toBe(ALERT_VIEW_LIMITS.maxFontDelayMs);
    expect(toAlertView({ display_time: 1e12 }, {}).displayMs).toBe(ALERT_VIEW_LIMITS.maxDisplayMs);
  });

  it("accepts text already split into segments by the engine", () => {
    const view = toAlertView({ title: [{ text: "<b>Eve</b>", fromData: true }, { text: " raided", fromData: false }, 7] }, {});
    expect(view.title).toEqual([
      { text: "<b>Eve</b>", fromData: true },
      { text: " raided", fromData: false },
    ]);
  });
});

describe("field helpers", () => {
  it("mediaUrl keeps http(s) and media data URLs only", () => {
    expect(mediaUrl(" https://a.example/x.png ")).toBe("https://a.example/x.png");
    expect(mediaUrl("data:image/png;base64,AAAA")).toBe("data:image/png;base64,AAAA");
    expect(mediaUrl("data:text/html,<script>")).toBeNull();
    expect(mediaUrl("file:///etc/passwd")).toBeNull();
    expect(mediaUrl("not a url")).toBeNull();
  });

  it("hexColor accepts #rgb, #rrggbb and alpha forms", () => {
    expect(hexColor("#abc", "#000")).toBe("#abc");
    expect(hexColor("#8205b3ff", "#000")).toBe("#8205b3ff");
    expect(hexColor("blue", "#000")).toBe("#000");
  });

  it("volumeFraction reads a percentage", () => {
    expect(volumeFraction(50)).toBe(0.5);
    expect(volumeFraction(0)).toBe(0);
    expect(volumeFraction(250)).toBe(1);
    expect(volumeFraction(undefined)).toBe(1);
  });

  it("fontFamilyList quotes plain names and refuses CSS injection", () => {
    expect(fontFamilyList("Comic Sans MS")).toBe(`"Comic Sans MS", "Inter", sans-serif`);
    expect(fontFamilyList("a\"),url(x")).toBe(`"Inter", sans-serif`);
  });
});
