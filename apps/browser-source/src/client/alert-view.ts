import { ALERT_LIMITS, LAYOUT_BASE_FONT_PX, renderPlaceholderSegments } from "@ovation/core/alerts";
import type { PlaceholderSegment } from "@ovation/core/alerts";

/** A piece of alert text: literal template text, or (`fromData`) a value from the alert's data. */
export type TextSegment = PlaceholderSegment;

/** How image and text are arranged (the engine's names, plus a few more the page can draw). */
export const ALERT_LAYOUTS = [
  "image-above", "image-below", "image-left", "image-right", "banner", "overlay", "text-only", "image-only",
] as const;
/** A layout name the page knows. */
export type AlertLayout = (typeof ALERT_LAYOUTS)[number];

/** Enter animations the page knows (animate.css names in kebab case; `fadeIn` is read as `fade-in`). */
export const ENTER_ANIMATIONS = [
  "none", "fade-in", "fade-in-down", "fade-in-up", "fade-in-left", "fade-in-right",
  "slide-in-down", "slide-in-up", "slide-in-left", "slide-in-right", "zoom-in", "bounce-in", "flip-in-x", "flip-in-y", "back-in-down", "back-in-up",
] as const;
/** Leave animations the page knows. */
export const LEAVE_ANIMATIONS = [
  "none", "fade-out", "fade-out-up", "fade-out-down", "fade-out-left", "fade-out-right",
  "slide-out-up", "slide-out-down", "slide-out-left", "slide-out-right", "zoom-out", "bounce-out", "flip-out-x", "flip-out-y", "back-out-down", "back-out-up",
] as const;
/** Text animations the page knows; `wave` and `bounce` animate each letter. */
export const FONT_ANIMATIONS = ["none", "wiggle", "wave", "bounce", "pulse", "shake", "tada", "rubber-band", "jello", "heart-beat", "swing"] as const;

/** An enter animation name. */
export type EnterAnimation = (typeof ENTER_ANIMATIONS)[number];
/** A leave animation name. */
export type LeaveAnimation = (typeof LEAVE_ANIMATIONS)[number];
/** A text animation name. */
export type FontAnimation = (typeof FONT_ANIMATIONS)[number];

/** Fonts bundled with the page (from @fontsource); other names are tried as installed fonts first. */
export const BUNDLED_FONTS = ["Inter", "Roboto", "Montserrat"] as const;

/** Bounds the page applies to template values, matching the engine's units (ms, px, percent). */
export const ALERT_VIEW_LIMITS = {
  /** display_time in milliseconds. */
  minDisplayMs: 500,
  maxDisplayMs: 600_000,
  defaultDisplayMs: 8_000,
  /**
   * font_size is relative to the layout's base size (`LAYOUT_BASE_FONT_PX`, 36 px), like CSS em:
   * the reference example sends 1.4. A value above the engine's relative maximum can only be a
   * pixel size of an older alert (logged before the unit changed) and is drawn as pixels.
   */
  minFontPx: 4,
  maxFontPx: 512,
  defaultFontPx: LAYOUT_BASE_FONT_PX,
  pixelsAbove: ALERT_LIMITS.fontSize.max,
  /** font_delay in milliseconds before the text animation starts. */
  maxFontDelayMs: 60_000,
} as const;

const LAYOUT_ALIASES: Readonly<Record<string, AlertLayout>> = {
  above: "image-above",
  below: "image-below",
  left: "image-left",
  right: "image-right",
  side: "image-left",
};

/** `fadeInDown` -> `fade-in-down`; kebab-case names pass unchanged. */
export function kebabName(value: unknown): string {
  return typeof value === "string" ? value.trim().replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase() : "";
}

/** Everything the renderer needs to show one standard alert, already validated and bounded. */
export interface AlertView {
  layout: AlertLayout;
  /** http(s) or data: URL of the image, or null for none. */
  image: string | null;
  /** http(s) or data: URL of the sound, or null for none. */
  sound: string | null;
  /** 0..1 */
  volume: number;
  title: TextSegment[];
  subtitle: TextSegment[];
  displayMs: number;
  font: {
    /** A CSS font-family list. */
    family: string;
    /** CSS pixels of the title; the subtitle is drawn at 60 %. */
    sizePx: number;
    weight: number;
    color: string;
    highlightColor: string;
    animation: FontAnimation;
    delayMs: number;
  };
  enter: EnterAnimation;
  leave: LeaveAnimation;
}

const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const FONT_NAME = /^[A-Za-z0-9 _-]{1,64}$/;
const MAX_URL_LENGTH = 4096;

function finiteNumber(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function pick<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  const name = kebabName(value);
  return (allowed as readonly string[]).includes(name) ? (name as T) : fallback;
}

/** The layout to draw: a known name or alias, else `image-above` (the engine's fallback too). */
export function layoutName(value: unknown): AlertLayout {
  const name = kebabName(value);
  return LAYOUT_ALIASES[name] ?? pick(name, ALERT_LAYOUTS, "image-above");
}

/** Font size in CSS pixels: the relative size times the layout's base size (a legacy pixel value as it is). */
export function fontSizePx(value: unknown): number {
  const number = finiteNumber(value);
  const L = ALERT_VIEW_LIMITS;
  if (number === undefined || number <= 0) return L.defaultFontPx;
  const px = number > L.pixelsAbove ? number : number * L.defaultFontPx;
  return clamp(px, L.minFontPx, L.maxFontPx);
}

/** A media URL the page may load: http(s) or an image/audio data URL, at most 4096 characters; else null. */
export function mediaUrl(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  if (trimmed === "" || trimmed.length > MAX_URL_LENGTH) return null;
  if (/^data:(?:image|audio)\//i.test(trimmed)) return trimmed;
  try {
    const url = new URL(trimmed);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/** A `#rgb`/`#rrggbb`(`aa`) colour, or the fallback. */
export function hexColor(value: unknown, fallback: string): string {
  return typeof value === "string" && HEX_COLOR.test(value.trim()) ? value.trim() : fallback;
}

/** A CSS font-family list for a template font name: the name (if it is a plain name), then Inter, then sans-serif. */
export function fontFamilyList(value: unknown): string {
  const name = typeof value === "string" ? value.trim() : "";
  if (!FONT_NAME.test(name) || name.toLowerCase() === "inter") return `"Inter", sans-serif`;
  return `"${name}", "Inter", sans-serif`;
}

/**
 * Sound volume as 0..1. Templates give a percentage 0..100 (the reference example sends `0`);
 * out-of-range values are clamped, anything else means full volume.
 */
export function volumeFraction(value: unknown): number {
  const number = finiteNumber(value);
  if (number === undefined) return 1;
  return clamp(number, 0, 100) / 100;
}

function textSegments(value: unknown, data: Readonly<Record<string, unknown>>): TextSegment[] {
  if (typeof value === "string") return renderPlaceholderSegments(value, data);
  if (Array.isArray(value)) {
    // An engine may hand over text already split into literal and data segments.
    return value.flatMap((item): TextSegment[] => {
      if (item === null || typeof item !== "object") return [];
      const { text, fromData } = item as { text?: unknown; fromData?: unknown };
      return typeof text === "string" ? [{ text, fromData: fromData === true }] : [];
    });
  }
  return [];
}

/**
 * Turns a resolved alert template (the AE4 engine's result, or an inline variant 2 template) and the
 * alert's data into a view the renderer can show. Every field is checked and bounded; an unusable
 * value falls back to the default instead of failing the alert. Placeholders are filled into text
 * segments, never into markup.
 */
export function toAlertView(template: Readonly<Record<string, unknown>>, data: Readonly<Record<string, unknown>>): AlertView {
  const displayMs = finiteNumber(template.display_time);
  const fontWeight = finiteNumber(template.font_weight);
  const fontDelay = finiteNumber(template.font_delay);
  return {
    layout: layoutName(template.layout),
    image: mediaUrl(template.image_href),
    sound: mediaUrl(template.sound_href),
    volume: volumeFraction(template.volume),
    title: textSegments(template.title, data),
    subtitle: textSegments(template.subtitle, data),
    displayMs:
      displayMs === undefined
        ? ALERT_VIEW_LIMITS.defaultDisplayMs
        : Math.round(clamp(displayMs, ALERT_VIEW_LIMITS.minDisplayMs, ALERT_VIEW_LIMITS.maxDisplayMs)),
    font: {
      family: fontFamilyList(template.font_family),
      sizePx: fontSizePx(template.font_size),
      weight: fontWeight === undefined ? 700 : Math.round(clamp(fontWeight, 1, 1000)),
      color: hexColor(template.font_color, "#ffffff"),
      highlightColor: hexColor(template.font_highlight_color, "#9146ff"),
      animation: pick(template.font_animation, FONT_ANIMATIONS, "none"),
      delayMs: fontDelay === undefined ? 0 : Math.round(clamp(fontDelay, 0, ALERT_VIEW_LIMITS.maxFontDelayMs)),
    },
    enter: pick(template.animation_alert_enter, ENTER_ANIMATIONS, "fade-in"),
    leave: pick(template.animation_alert_leave, LEAVE_ANIMATIONS, "fade-out"),
  };
}
