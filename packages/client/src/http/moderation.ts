import type * as api from "@ovation/core/api";
import { botUser, callOnly } from "./schema-types.js";
import type { BotCallOptions, In, Out } from "./schema-types.js";
import type { HttpClient } from "./transport.js";

/** Routes of {@link moderationApi}. */
export const MODERATION_ROUTES = {
  get: { method: "GET", path: "/v1/bots/{user}/moderation" },
  replace: { method: "PUT", path: "/v1/bots/{user}/moderation" },
  test: { method: "POST", path: "/v1/bots/{user}/moderation/test" },
} as const;

/** Settings, per-platform availability and recent outcomes of auto-moderation. */
export type ModerationView = Out<typeof api.moderationViewSchema>;

/** Auto-moderation (scope `chatbot:manage:moderation`). */
export function moderationApi(http: HttpClient) {
  return {
    /** `GET /v1/bots/{user}/moderation`. */
    get: (options?: BotCallOptions) => http.call<ModerationView>(MODERATION_ROUTES.get, { ...callOnly(options), params: botUser(options) }),
    /** `PUT /v1/bots/{user}/moderation`: replace the settings (rules left out are off). */
    replace: (settings: In<typeof api.moderationSettingsSchema>, options?: BotCallOptions) =>
      http.call<ModerationView>(MODERATION_ROUTES.replace, { ...callOnly(options), params: botUser(options), body: settings }),
    /** `POST /v1/bots/{user}/moderation/test`: the rule a chat message would break (and its action), or `verdict: null`. */
    test: (body: In<typeof api.moderationTestBodySchema>, options?: BotCallOptions) =>
      http.call<Out<typeof api.moderationTestResultSchema>>(MODERATION_ROUTES.test, { ...callOnly(options), params: botUser(options), body }),
  };
}

/** The API of {@link moderationApi}. */
export type ModerationApi = ReturnType<typeof moderationApi>;
