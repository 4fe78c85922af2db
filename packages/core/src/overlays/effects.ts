import * as z from "zod";

/**
 * The effects of the effect-alerts source, in a module of their own: the alert-set schema
 * (`effect` of a type default or variation) takes them without the other overlay options, so the
 * dashboard's first load does not carry those.
 */

/** Full-screen effects the effect-alerts source plays. */
export const OVERLAY_EFFECTS = ["none", "confetti", "emote-rain", "fireworks", "hearts"] as const;

/**
 * One effect of the effect-alerts source. Its fields are getters, which zod builds on the schema's
 * first parse: the alerts entry imports this module, and an import should not build schemas nobody
 * has used yet (packages/core README, "Import cost").
 */
export const overlayEffectSchema = z.strictObject({
  get effect() {
    return z.enum(OVERLAY_EFFECTS);
  },
  /** Pieces per unit of the alert's amount (bits, gifts, viewers...), for effects sized by amount. */
  get per_amount() {
    return z.number().min(0).max(100).default(1);
  },
  /** Fewest and most pieces one alert throws. */
  get min_pieces() {
    return z.number().int().min(0).max(2000).default(60);
  },
  get max_pieces() {
    return z.number().int().min(1).max(2000).default(400);
  },
});
