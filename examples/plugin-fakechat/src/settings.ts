import { z } from "zod";

/**
 * Settings of the FakeChat plugin: `OVATION_PLUGIN_FAKECHAT_URL`, `..._CHANNEL`, `..._USER_ID`, or
 * `plugins.fakechat.{url,channel,userId}` in the config file.
 */
export const fakeChatSettingsSchema = z.object({
  /** The FakeChat server, `tcp://host:port`. */
  url: z.string().regex(/^tcp:\/\/[^\s/:]+:\d{1,5}$/, "must be tcp://host:port"),
  /** The channel to join. */
  channel: z.string().regex(/^[a-z0-9_]{1,25}$/, "must be 1-25 characters of a-z, 0-9 and _"),
  /** The Ovation user who owns the channel (default: the server's first user). */
  userId: z.coerce.number().int().positive().optional(),
});

/** Validated FakeChat settings. */
export type FakeChatSettings = z.output<typeof fakeChatSettingsSchema>;
