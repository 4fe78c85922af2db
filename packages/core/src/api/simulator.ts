import { z } from "zod";
import { notifySubSchema } from "../notifications/notifysub.js";

/** The most a simulated event's `data` may hold (the same bound as an alert's data, checked again on delivery). */
const DATA_KEYS_MAX = 64;

/**
 * Body of `POST /v1/simulate`: a catalog event of a platform (`follow`, `raid`, `stream.online`...)
 * sent through the same path as a platform plugin's. `data` replaces the catalog example's
 * values key by key; `name` is a short way to set `data.name`.
 */
export const simulateBodySchema = z.object({
  type: z.string().min(1).max(128).describe("An alert type of the catalog, or stream.online / stream.offline"),
  platform: z.string().min(1).max(32).describe("A platform of the catalog (twitch, youtube, kick, tiktok...)"),
  name: z.string().min(1).max(100).optional().describe("Who caused it: sets data.name"),
  data: z
    .record(z.string().max(64), z.unknown())
    .refine((d) => Object.keys(d).length <= DATA_KEYS_MAX, `The data field may have at most ${DATA_KEYS_MAX} keys.`)
    .optional()
    .describe("Values over the catalog example's"),
});

/** Answer of `POST /v1/simulate`: the notification as it was delivered (marked `ovation.simulated`). */
export const simulateResultSchema = z.object({ notification: notifySubSchema });
