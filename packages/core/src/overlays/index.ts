/**
 * @ovation/core/overlays: the options of the overlay browser sources (`chat`, `events`, `emotewall`,
 * `effect-alerts`, `scenes`) as zod schemas with defaults. Depends on zod only, so the browser-source
 * page and the dashboard load it without the rest of the API schemas.
 */
export { OVERLAY_EFFECTS, overlayEffectSchema } from "./effects.js";
export {
  OVERLAY_THEMES,
  BROWSER_SOURCE_SETTINGS_SCHEMAS,
  browserSourceSettingsBodySchema,
  chatSourceSettingsSchema,
  eventsSourceSettingsSchema,
  emotewallSourceSettingsSchema,
  effectAlertsSourceSettingsSchema,
  scenePartSchema,
  scenesSourceSettingsSchema,
  speechSettingsSchema,
  speechTypeSchema,
  alertsSourceSettingsSchema,
} from "./settings.js";
export type {
  ChatSourceSettings,
  EventsSourceSettings,
  EmotewallSourceSettings,
  EffectAlertsSourceSettings,
  OverlayEffect,
  ScenesSourceSettings,
  ScenePart,
  SpeechSettings,
} from "./settings.js";
