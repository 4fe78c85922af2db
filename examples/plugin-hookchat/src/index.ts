/**
 * ovation-plugin-hookchat: a sample third-party plugin of an OAuth + webhook platform. Load it with
 * `OVATION_PLUGINS=ovation-plugin-hookchat` (installed beside the server); set
 * `OVATION_PLUGIN_HOOKCHAT_API_URL`, and the OAuth app streamers link through,
 * `OVATION_HOOKCHAT_CLIENT_ID` / `OVATION_HOOKCHAT_CLIENT_SECRET`.
 */
import { definePlugin } from "@ovation/core/contracts";
import { hookChatPlugin } from "./plugin.js";
import { hookChatSettingsSchema } from "./settings.js";

export { HookChatChannel, hookChatPlugin, verifySignature } from "./plugin.js";
export { hookChatSettingsSchema } from "./settings.js";
export type { HookChatSettings } from "./settings.js";
export { SIGNATURE_HEADER } from "./wire.js";
export type { HookChatEvent } from "./wire.js";

export default definePlugin({ id: "hookchat", settings: hookChatSettingsSchema }, (settings, context) => hookChatPlugin(settings, context));
