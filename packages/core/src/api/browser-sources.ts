import { z } from "zod";

/**
 * The kinds of browser source: the reference's four (`alerts`, `effect-alerts`, `scenes`, `goalbars`),
 * Ovation's overlays `chat` (one chat box for every platform), `events` (the activity feed) and
 * `emotewall` (docs/overlays.md), and the bot modules' `queue` (docs/queue.md) and `poll` (docs/polls.md).
 */
export const BROWSER_SOURCE_TYPES = ["alerts", "effect-alerts", "scenes", "goalbars", "chat", "events", "emotewall", "queue", "poll"] as const;

/** A kind of browser source. */
export type BrowserSourceType = (typeof BROWSER_SOURCE_TYPES)[number];

/** A browser source as the API returns it (string `user_id` and `identifier`, like the reference). */
export const browserSourceSchema = z
  .object({
    id: z.number(),
    identifier: z.string().nullable(),
    browser_source_type: z.enum(BROWSER_SOURCE_TYPES),
    access_token: z.string(),
    user_id: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    browser_source_url: z.string(),
    settings: z.record(z.string(), z.unknown()).describe("The source's options (docs/overlays.md); {} when none were saved"),
  })
  .meta({ id: "BrowserSource" });

/**
 * A browser source as `/v1/bots/{user}/browser-source...` answers it: the same record, with the
 * access token and the address (secrets: whoever holds them shows the channel's alerts anywhere)
 * null when the caller is a manager of the channel rather than its owner.
 */
export const channelBrowserSourceSchema = browserSourceSchema
  .extend({
    access_token: z.string().nullable().describe("null for a manager: only the channel's owner sees it"),
    browser_source_url: z.string().nullable().describe("null for a manager: only the channel's owner sees it"),
  })
  .meta({ id: "ChannelBrowserSource" });

/** Body of `POST /v1/browser-source/generate`. */
export const browserSourceGenerateBodySchema = z.object({
  browser_source_type: z.enum(BROWSER_SOURCE_TYPES, { error: `must be one of ${BROWSER_SOURCE_TYPES.join(", ")}` }),
  identifier: z
    .string({ error: "must be a string (send numeric ids as strings)" })
    .min(1, "must not be empty")
    .max(64, "must be at most 64 characters")
    .regex(/^[A-Za-z0-9_-]+$/, "may contain only letters, digits, - and _")
    .optional(),
});
