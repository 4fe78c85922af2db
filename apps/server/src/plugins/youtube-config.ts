import { youtubeSettingsSchema } from "@ovation/plugin-youtube";
import type { YouTubeSettings } from "@ovation/plugin-youtube";
import { ConfigError, presentEnv } from "../config.js";

/** YouTube plugin settings read from `OVATION_YOUTUBE_*` (see the plugin's README). */
export type YouTubeEnv = YouTubeSettings;

/** `clientId` -> `OVATION_YOUTUBE_CLIENT_ID`. */
const envName = (key: string): string => `OVATION_YOUTUBE_${key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase()}`;

/** Reads `OVATION_YOUTUBE_<KEY>` for each setting of the plugin's schema; throws `ConfigError` naming each bad variable. */
export function loadYouTubeEnv(env: Readonly<Record<string, string | undefined>>): YouTubeEnv {
  const keys = Object.keys(youtubeSettingsSchema.shape);
  const present = presentEnv(env, keys.map(envName));
  const input = Object.fromEntries(keys.flatMap((key) => (present[envName(key)] === undefined ? [] : [[key, present[envName(key)]]])));
  const parsed = youtubeSettingsSchema.safeParse(input);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => `${envName(String(i.path[0]))}: ${i.message}`));
  return parsed.data;
}
