import { z } from "zod";
import { httpOriginSchema } from "@ovation/core/plugin-kit";

const url = httpOriginSchema;

/** zod schema of the TikTok plugin's options ({@link TikTokPluginOptions}). */
export const tiktokPluginOptionsSchema = z.object({
  /** The Ovation channel (user) id the LIVE belongs to. */
  channelId: z.string().min(1).max(256),
  /** The streamer's TikTok unique id (the @handle, without @). */
  uniqueId: z.string().regex(/^@?[A-Za-z0-9_.]{2,24}$/, "must be a TikTok @handle").transform((s) => s.replace(/^@/, "")),
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
  likeWindowSeconds: z.number().positive().max(3600).default(10),
  /** How often to look again while the streamer is not live. */
  offlinePollSeconds: z.number().positive().default(60),
  /** Backoff after a failed connection (doubles up to max, with jitter). */
  backoffMs: z.object({ min: z.number().int().positive(), max: z.number().int().positive() }).default({ min: 2_000, max: 120_000 }),
});

/** Options of the TikTok plugin (input form: defaults may be left out). */
export type TikTokPluginOptions = z.input<typeof tiktokPluginOptionsSchema>;
/** Parsed options of the TikTok plugin. */
export type TikTokParsedOptions = z.output<typeof tiktokPluginOptionsSchema>;
