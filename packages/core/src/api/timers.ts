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
    status: z.array(z.object({ platform: z.string(), lines: z.number(), last_post_at: z.number() })).describe("Chat lines counted since the last post, per platform"),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "BotTimer" });
