import { definePlugin } from "@ovation/core/contracts";
import { z } from "zod";

/**
 * A platform plugin whose platform refuses its credentials: its connect fails as a bad token would,
 * so the host reports it `failed` with the plugin's message (tests of `/v1/plugins` and the dashboard).
 */
export const refusedPlugin = definePlugin({ id: "refused", settings: z.object({}) }, () => ({
  metadata: { name: "refused", platform: "refusedchat", version: "1.2.3", core: "^0.1.0" },
  capabilities: { send: [], moderation: { deleteMessage: false, timeout: false } },
  settings: {},
  channels: () => [],
  connect: async () => {
    throw new Error("the platform refused the token (401)");
  },
  disconnect: async () => undefined,
  send: async () => undefined,
}));
