import { z } from "zod";
import { commandTestBodySchema } from "../commands/command-view.js";
import { MODERATION_RULES, moderationSettingsSchema } from "./moderation-record.js";

const ruleAvailability = z.object({ actions: z.array(z.string()), available: z.boolean() });

/** Answer of `GET`/`PUT /v1/bots/{user}/moderation`. */
export const moderationViewSchema = z
  .object({
    settings: moderationSettingsSchema,
    scorer: z.object({ name: z.string(), description: z.string() }).nullable().describe("The toxicity scorer in use"),
    availability: z
      .array(
        z.object({
          plugin: z.string(),
          platform: z.string(),
          rules: z.object(Object.fromEntries(MODERATION_RULES.map((rule) => [rule, ruleAvailability])) as Record<(typeof MODERATION_RULES)[number], typeof ruleAvailability>),
        }),
      )
      .describe("Per platform channel: whether the plugin can take each rule's actions (unavailable rules do nothing there)"),
    recent: z
      .array(
        z.object({
          at: z.string(),
          platform: z.string(),
          user_platform_id: z.string(),
          username: z.string(),
          rule: z.string(),
          action: z.string(),
          detail: z.string(),
          result: z.enum(["done", "unavailable", "failed"]),
        }),
      )
      .describe("The last 50 auto-moderation outcomes since the server started, newest first"),
  })
  .meta({ id: "BotModeration" });

/** Body of `POST /v1/bots/{user}/moderation/test`: a chat message and, optionally, who writes it (as for a command's dry run). */
export const moderationTestBodySchema = commandTestBodySchema.pick({ message: true, event: true });

/** Answer of `POST /v1/bots/{user}/moderation/test`: the rule that fires and its action, or null when the message passes. */
export const moderationTestResultSchema = z.object({
  verdict: z.object({ rule: z.enum(MODERATION_RULES), action: z.object({ type: z.enum(["delete", "timeout", "ban", "warn"]), seconds: z.number().optional() }), detail: z.string() }).nullable(),
});

/** Who writes a "test a message" dry run (parts of a chat event; a viewer without badges on twitch by default). */
export type ModerationTestWriter = z.output<typeof moderationTestBodySchema>["event"];
