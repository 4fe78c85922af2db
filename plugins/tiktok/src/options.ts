import { z } from "zod";
import { hostSettings, httpOriginSchema } from "@ovation/core/plugin-kit";

const url = httpOriginSchema;
const number = () => z.coerce.number<number>({ error: "must be a number" });

/**
 * The settings an operator chooses, each declared once with its validation and default: the plugin
 * takes them as options ({@link tiktokPluginOptionsSchema}), the host reads them without the
 * defaults ({@link tiktokSettingsSchema}). Values may arrive as strings (numbers are coerced).
 */
const tiktokChoices = {
  /**
   * The signing service: TikTok's WebSocket URL must be signed, and tiktok-live-connector asks
   * this server (`GET <signServerUrl>/webcast/rooms/<room id>/connect`) for a signed connection.
   */
  signServerUrl: url.default("https://api.eulerstream.com"),
  /** API key sent to the signing service (`x-api-key`), if it needs one. */
  signApiKey: z.string().min(1).optional(),
  /** TikTok's website (the LIVE page the room id is read from). */
  webUrl: url.default("https://www.tiktok.com"),
  /** TikTok's webcast API (room info). */
  webcastUrl: url.default("https://webcast.tiktok.com"),
  /** Extra CA certificate (PEM) trusted for webUrl/webcastUrl (a TLS-inspecting proxy, or a test fake). */
  caCertificate: z.string().min(1).optional(),
  /** Likes are added up over this window and announced once per window. */
  likeWindowSeconds: number().positive("must be greater than 0").max(3600, "must be at most 3600").default(10),
  /** How often to look again while the streamer is not live. */
  offlinePollSeconds: number().positive("must be greater than 0").default(60),
};

/**
 * Settings of the TikTok plugin, read from `OVATION_TIKTOK_<KEY>` or the `tiktok` section of the
 * config file: `signServerUrl`, `signApiKey`, `webUrl`, `webcastUrl`, `caCertificate`,
 * `likeWindowSeconds`, `offlinePollSeconds`. The LIVEs followed are those of the linked TikTok
 * accounts (by username) whose streamers switched the bot on.
 */
export const tiktokSettingsSchema = z.object({
  /** Removed: is no longer read: the LIVE of every TikTok username linked under Connections is followed */
  uniqueId: z.never({ error: "is no longer read: the LIVE of every TikTok username linked under Connections is followed" }).optional(),
  /** Removed: is no longer read: every streamer who links TikTok under Connections and switches the bot on is served */
  user: z.never({ error: "is no longer read: every streamer who links TikTok under Connections and switches the bot on is served" }).optional(),
  ...hostSettings(tiktokChoices),
});

/** Validated TikTok settings. */
export type TikTokSettings = z.output<typeof tiktokSettingsSchema>;

/** zod schema of the TikTok plugin's options ({@link TikTokPluginOptions}): the operator's choices and the LIVE the host gives it. */
export const tiktokPluginOptionsSchema = z.object({
  /** The Ovation channel (user) id the LIVE belongs to. */
  channelId: z.string().min(1).max(256),
  /** The streamer's TikTok unique id (the @handle, without @). */
  uniqueId: z.string().regex(/^@?[A-Za-z0-9_.]{2,24}$/, "must be a TikTok @handle").transform((s) => s.replace(/^@/, "")),
  ...tiktokChoices,
  // The plugin's own message for a bad window is zod's, as it always was (the host's is above).
  likeWindowSeconds: z.number().positive().max(3600).default(10),
  /** Backoff after a failed connection (doubles up to max, with jitter). */
  backoffMs: z.object({ min: z.number().int().positive(), max: z.number().int().positive() }).default({ min: 2_000, max: 120_000 }),
});

/** Options of the TikTok plugin (input form: defaults may be left out). */
export type TikTokPluginOptions = z.input<typeof tiktokPluginOptionsSchema>;
/** Parsed options of the TikTok plugin. */
export type TikTokParsedOptions = z.output<typeof tiktokPluginOptionsSchema>;
