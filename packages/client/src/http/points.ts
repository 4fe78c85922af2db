import type * as commands from "@ovation/core/commands";
import { botUser, callOnly } from "./schema-types.js";
import type { BotCallOptions, In, Out } from "./schema-types.js";
import type { HttpClient } from "./transport.js";

/** Routes of {@link pointsApi}. */
export const POINTS_ROUTES = {
  settings: { method: "GET", path: "/v1/bots/{user}/points/settings" },
  saveSettings: { method: "PUT", path: "/v1/bots/{user}/points/settings" },
  leaderboard: { method: "GET", path: "/v1/bots/{user}/points/leaderboard" },
  history: { method: "GET", path: "/v1/bots/{user}/points/history" },
  viewer: { method: "GET", path: "/v1/bots/{user}/points/viewers/{viewer}" },
  adjust: { method: "POST", path: "/v1/bots/{user}/points/viewers/{viewer}/adjust" },
  export: { method: "GET", path: "/v1/bots/{user}/points/export" },
  import: { method: "POST", path: "/v1/bots/{user}/points/import" },
} as const;

/** The points settings as the API returns them. */
export type PointsSettingsView = Out<typeof commands.pointsSettingsSchema>;
/** The body of `saveSettings` (fields left out take their defaults). */
export type PointsSettingsInput = In<typeof commands.pointsSettingsSchema>;
/** One change of the points history. */
export type PointsHistoryView = Out<typeof commands.pointsHistoryEntrySchema>;
/** One row of the leaderboard. */
export type PointsStandingView = commands.PointsStanding;
/** One viewer's balance. */
export interface PointsViewerView {
  viewer: string;
  name: string | null;
  platform: string | null;
  points: number;
}

/** Loyalty points (scope `chatbot:manage:points`; docs/points.md). `viewer` is a wallet: `twitch:123`, `account:7`. */
export function pointsApi(http: HttpClient) {
  const bot = (options?: BotCallOptions) => ({ ...callOnly(options), params: botUser(options) });
  return {
    /** `GET /v1/bots/{user}/points/settings`. */
    settings: (options?: BotCallOptions) => http.call<PointsSettingsView>(POINTS_ROUTES.settings, bot(options)),
    /** `PUT /v1/bots/{user}/points/settings`. */
    saveSettings: (body: PointsSettingsInput, options?: BotCallOptions) => http.call<PointsSettingsView>(POINTS_ROUTES.saveSettings, { ...bot(options), body }),
    /** `GET /v1/bots/{user}/points/leaderboard`: highest balance first. */
    leaderboard: (query: { limit?: number; offset?: number } = {}, options?: BotCallOptions) =>
      http.call<{ data: PointsStandingView[]; total: number; currency: string }>(POINTS_ROUTES.leaderboard, { ...bot(options), query }),
    /** `GET /v1/bots/{user}/points/history`: newest first. */
    history: (query: { limit?: number; reason?: string } = {}, options?: BotCallOptions) => http.call<{ data: PointsHistoryView[] }>(POINTS_ROUTES.history, { ...bot(options), query }),
    /** `GET /v1/bots/{user}/points/viewers/{viewer}`. */
    viewer: (viewer: string, options?: BotCallOptions) => http.call<PointsViewerView>(POINTS_ROUTES.viewer, { ...callOnly(options), params: { ...botUser(options), viewer } }),
    /** `POST /v1/bots/{user}/points/viewers/{viewer}/adjust`: adds `amount` (negative takes). */
    adjust: (viewer: string, amount: number, options?: BotCallOptions) =>
      http.call<PointsViewerView>(POINTS_ROUTES.adjust, { ...callOnly(options), params: { ...botUser(options), viewer }, body: { amount } }),
    /** `GET /v1/bots/{user}/points/export`: every balance as CSV. */
    export: (options?: BotCallOptions) => http.call<{ csv: string; viewers: number }>(POINTS_ROUTES.export, bot(options)),
    /** `POST /v1/bots/{user}/points/import`: a CSV with any bad line changes nothing (422, `errors` by line). */
    import: (csv: string, mode: "set" | "add" = "set", options?: BotCallOptions) => http.call<{ imported: number; mode: "set" | "add" }>(POINTS_ROUTES.import, { ...bot(options), body: { csv, mode } }),
  };
}

/** The API of {@link pointsApi}. */
export type PointsApi = ReturnType<typeof pointsApi>;
