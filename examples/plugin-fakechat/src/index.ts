/**
 * ovation-plugin-fakechat: a sample third-party platform plugin. Load it with
 * `OVATION_PLUGINS=ovation-plugin-fakechat` (installed beside the server) and set
 * `OVATION_PLUGIN_FAKECHAT_URL` and `OVATION_PLUGIN_FAKECHAT_CHANNEL`.
 */
import { definePlugin } from "@ovation/core/contracts";
import { FakeChatPlugin } from "./plugin.js";
import { fakeChatSettingsSchema } from "./settings.js";

export { FakeChatPlugin } from "./plugin.js";
export { fakeChatSettingsSchema } from "./settings.js";
export type { FakeChatSettings } from "./settings.js";
export type { ClientLine, FakeChatUser, ServerLine } from "./wire.js";

export default definePlugin({ id: "fakechat", settings: fakeChatSettingsSchema }, (settings, context) => new FakeChatPlugin(settings, context));
