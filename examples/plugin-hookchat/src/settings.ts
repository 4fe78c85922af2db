import { z } from "zod";

/**
 * Settings (`OVATION_PLUGIN_HOOKCHAT_<KEY>`): where HookChat's API is. The OAuth app (client id and
 * secret) is the one streamers link through, `OVATION_HOOKCHAT_CLIENT_ID` / `_CLIENT_SECRET`, which
 * the host hands the plugin through its credentials service.
 */
export const hookChatSettingsSchema = z.object({
  apiUrl: z.url({ error: "must be the HookChat API's http(s) URL" }),
});

export type HookChatSettings = z.output<typeof hookChatSettingsSchema>;
