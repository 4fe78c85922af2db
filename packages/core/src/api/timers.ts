import { z } from "zod";

/** A timer as the API returns it. */
export const timerViewSchema = z
  .object({
    id: z.number(),
    name: z.string(),
    message: z.string(),
    interval_minutes: z.number(),
    min_chat_lines: z.number(),
    platforms: z.array(z.string()),
    send_as: z.string(),
    enabled: z.boolean(),
    status: z
      .array(
        z.object({
          platform: z.string(),
          lines: z.number(),
          last_post_at: z.number(),
          next_post_at: z.number().describe("When the interval is over on this platform (ms since the epoch); it posts then if live with enough chat lines"),
        }),
      )
      .describe("Chat lines counted since the last post, per platform"),
    live: z.boolean().describe("Whether the channel is live now: timers post only while it is"),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "BotTimer" });
