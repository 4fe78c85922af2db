import { ALERT_LIMITS } from "./limits.js";

/**
 * The base font size of every layout, in CSS pixels. `font_size` is relative to it, like CSS `em`:
 * 1.4 draws text at 1.4 × 36 = 50.4 px (the reference's variant 2 example sends 1.4).
 */
export const LAYOUT_BASE_FONT_PX = 36;

/** A pixel font size of an older Ovation store or an AE3 document as a relative size (4 decimals, within bounds). */
export function pixelsToRelativeFontSize(px: number): number {
  const { min, max } = ALERT_LIMITS.fontSize;
  const relative = Math.round((px / LAYOUT_BASE_FONT_PX) * 10_000) / 10_000;
  return Math.min(max, Math.max(min, relative));
}

function convertLayer(layer: unknown): boolean {
  if (layer === null || typeof layer !== "object" || Array.isArray(layer)) return false;
  const record = layer as Record<string, unknown>;
  const value = record["font_size"];
  if (typeof value !== "number" || !Number.isFinite(value)) return false;
  record["font_size"] = pixelsToRelativeFontSize(value);
  return true;
}

/**
 * Rewrites, in place, every `font_size` of an AE4 config written in pixels (the set's `default`,
 * each type default's `default`, each variation's `overrides`) as a relative size. Returns how
 * many values changed. Run it once per stored set: the caller records that it ran.
 */
export function convertPixelFontSizes(config: Record<string, unknown>): number {
  let changed = convertLayer(config["default"]) ? 1 : 0;
  const defaults = config["defaults"];
  if (Array.isArray(defaults)) for (const entry of defaults) if (entry && typeof entry === "object" && convertLayer((entry as Record<string, unknown>)["default"])) changed++;
  const variations = config["variations"];
  if (Array.isArray(variations)) for (const entry of variations) if (entry && typeof entry === "object" && convertLayer((entry as Record<string, unknown>)["overrides"])) changed++;
  return changed;
}
