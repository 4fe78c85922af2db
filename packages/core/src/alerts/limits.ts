/**
 * Bounds of the alert engine where the reference's interface says "not shown" (docs/alerts.md). Chosen to be generous for real
 * alert sets and small enough that a hostile config cannot make a browser source slow; each one is
 * explained in docs/alerts.md.
 */
export const ALERT_LIMITS = {
  /** display_time, in milliseconds. */
  displayTimeMs: { min: 500, max: 600_000 },
  /** volume, in percent. */
  volume: { min: 0, max: 100 },
  /** font_size, relative to the layout's base size like CSS `em` (1.4 = 1.4 × 36 px); decimals allowed. */
  fontSize: { min: 0.1, max: 14 },
  /** font_weight, the CSS numeric weight. */
  fontWeight: { min: 1, max: 1000 },
  /** font_delay, in milliseconds. */
  fontDelayMs: { min: 0, max: 60_000 },
  /** title, subtitle and chat_message length, in characters. */
  textLength: 500,
  /** image_href and sound_href length. */
  urlLength: 2048,
  /** layout, animation and font names. */
  nameLength: 64,
  /** Alert set, type default and variation names. */
  labelLength: 100,
  /** Variations per alert set. */
  variations: 200,
  /** Type defaults per alert set (every catalog type on every platform fits). */
  typeDefaults: 200,
  /** Nesting depth of a condition (`{"and":[{"===":[...]}]}` is depth 3). */
  conditionDepth: 8,
  /** Operators, variables and literals in one condition. */
  conditionNodes: 200,
  /** Length of a string literal or variable path in a condition. */
  conditionStringLength: 256,
  /** Keys of alert `data`. */
  dataKeys: 100,
  /** Nesting depth of a value in alert `data`. */
  dataDepth: 5,
  /** Length of a string inside alert `data`. */
  dataStringLength: 2_000,
  /** Items of an array inside alert `data`. */
  dataArrayLength: 500,
  /** html, css and js of a variant-3 template, each. */
  customCodeLength: 100_000,
  /** Custom fields of a variant-3 template. */
  customFields: 100,
  /** Length of a custom field value. */
  customFieldLength: 2_000,
} as const;
