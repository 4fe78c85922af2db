import { definePlugin } from "@ovation/core/contracts";
import { z } from "zod";
import { httpOriginSchema } from "@ovation/core/plugin-kit";
import { TikTokPlugin } from "./plugin.js";

const origin = httpOriginSchema.optional();
const number = () => z.coerce.number({ error: "must be a number" });

/**
 * Settings of the TikTok plugin, read from `OVATION_TIKTOK_<KEY>` or the `tiktok` section of the
 * config file: `uniqueId` (the streamer's @handle, required), `user` (the Ovation user id; default
 * the first user), `signServerUrl`, `signApiKey`, `webUrl`, `webcastUrl`, `caCertificate`,
 * `likeWindowSeconds`, `offlinePollSeconds`.
 */
export const tiktokSettingsSchema = z.object({
  uniqueId: z.string({ error: "is required when the tiktok plugin is enabled (the streamer's TikTok @handle)" }).min(1),
  user: z.coerce.string().regex(/^\d{1,12}$/, "must be an Ovation user id").transform(Number).optional(),
  signServerUrl: origin,
  signApiKey: z.string().min(1).optional(),
  webUrl: origin,
  webcastUrl: origin,
  caCertificate: z.string().min(1).optional(),
  likeWindowSeconds: number().positive("must be greater than 0").max(3600, "must be at most 3600").optional(),
  offlinePollSeconds: number().positive("must be greater than 0").optional(),
});

/** Validated TikTok settings. */
export type TikTokSettings = z.output<typeof tiktokSettingsSchema>;

/** The TikTok plugin factory (`OVATION_PLUGINS=tiktok`), created once the server listens. */
export const tiktokFactory = definePlugin(
  { id: "tiktok", settings: tiktokSettingsSchema, envPrefix: "OVATION_TIKTOK_", createOn: "listen" },
  (settings, context) => {
    const user = settings.user ?? context.firstUserId();
    if (user === null) throw new Error("OVATION_TIKTOK_USER is not set and there is no user yet");
    const { user: _user, ...rest } = settings;
    void _user;
    const options = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
    return new TikTokPlugin({ ...options, uniqueId: settings.uniqueId, channelId: String(user) });
  },
);

export default tiktokFactory;
