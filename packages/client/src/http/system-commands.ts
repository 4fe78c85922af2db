import type * as api from "@ovation/core/api";
import { botUser, callOnly } from "./schema-types.js";
import type { BotCallOptions, In, Out } from "./schema-types.js";
import type { HttpClient } from "./transport.js";

/** Routes of {@link systemCommandsApi}. */
export const SYSTEM_COMMANDS_ROUTES = {
  get: { method: "GET", path: "/v1/bots/{user}/system-commands" },
  replace: { method: "PUT", path: "/v1/bots/{user}/system-commands" },
} as const;

/** The bot's settings and each built-in command's state. */
export type SystemCommandsView = Out<typeof api.systemCommandsViewSchema>;
/** The body of `replace`: language, overlay switches, commands switched off (a field left out takes its default). */
export type BotSettingsInput = In<typeof api.systemCommandsBodySchema>;

/** The built-in commands (`!help`, `!language`, `!visuals`, `!effects`, `!sounds`): read with `chatbot:read`, change with `chatbot:manage`. */
export function systemCommandsApi(http: HttpClient) {
  return {
    /** `GET /v1/bots/{user}/system-commands`. */
    get: (options?: BotCallOptions) => http.call<SystemCommandsView>(SYSTEM_COMMANDS_ROUTES.get, { ...callOnly(options), params: botUser(options) }),
    /** `PUT /v1/bots/{user}/system-commands`: replace the settings (switch changes reach the browser sources at once). */
    replace: (settings: BotSettingsInput, options?: BotCallOptions) =>
      http.call<SystemCommandsView>(SYSTEM_COMMANDS_ROUTES.replace, { ...callOnly(options), params: botUser(options), body: settings }),
  };
}

/** The API of {@link systemCommandsApi}. */
export type SystemCommandsApi = ReturnType<typeof systemCommandsApi>;
