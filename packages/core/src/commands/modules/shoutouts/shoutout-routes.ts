import { z } from "zod";
import { BotRouteError } from "../../runtime/bot-module.js";
import type { BotModuleContext, BotModuleRoute } from "../../runtime/bot-module.js";
import { shoutoutRecordSchema, shoutoutSettingsSchema } from "./shoutout-record.js";
import type { ShoutoutRecord, ShoutoutSettings } from "./shoutout-record.js";
import type { ShoutoutOutcome } from "./shoutout-record.js";

/** What the shoutouts' routes need of the module. */
export interface ShoutoutRoutesTarget {
  overview(channel: string, ctx: BotModuleContext): Promise<{ settings: ShoutoutSettings; recent: ShoutoutRecord[] }>;
  configure(channel: string, input: unknown, ctx: BotModuleContext): Promise<ShoutoutSettings>;
  shoutout(channel: string, platform: string, target: string, by: string, ctx: BotModuleContext): Promise<ShoutoutOutcome>;
}

const SCOPE = "chatbot:manage:shoutouts";

/** The shoutouts' API, mounted at `/v1/bots/{user}/shoutouts...` (docs/shoutouts.md). */
export function shoutoutRoutes(shoutouts: ShoutoutRoutesTarget): BotModuleRoute[] {
  return [
    {
      method: "GET",
      path: "shoutouts",
      scope: SCOPE,
      summary: "The shoutout settings and the latest shoutouts",
      response: z.object({ settings: shoutoutSettingsSchema, recent: z.array(shoutoutRecordSchema) }),
      handle: ({ channel, context: ctx }) => shoutouts.overview(channel, ctx),
    },
    {
      method: "PUT",
      path: "shoutouts/settings",
      scope: SCOPE,
      summary: "Replace the shoutout settings (cooldowns, the platform's own shoutout, the message)",
      body: shoutoutSettingsSchema,
      response: shoutoutSettingsSchema,
      handle: ({ channel, body, context: ctx }) => shoutouts.configure(channel, body, ctx),
    },
    {
      method: "POST",
      path: "shoutouts",
      scope: SCOPE,
      summary: "Give a shoutout on a platform: the chat message there, and the platform's own shoutout where it has one",
      errors: [404, 429],
      description:
        "429 `OVATION_ERR_SHOUTOUTS_COOLDOWN` while a cooldown runs; 404 `OVATION_ERR_SHOUTOUTS_UNKNOWN_USER` when the platform " +
        "knows no such streamer; 422 for a name that is not a login.",
      body: z.object({
        platform: z.string().min(1).max(64),
        username: z.string().regex(/^@?[A-Za-z0-9_][A-Za-z0-9_.-]{0,49}$/, "must be a login: letters, digits, _ . - (at most 50)"),
      }),
      response: shoutoutRecordSchema,
      status: 201,
      async handle({ channel, body, context: ctx }) {
        const { platform, username } = body as { platform: string; username: string };
        const outcome = await shoutouts.shoutout(channel, platform, username, "api", ctx);
        switch (outcome.status) {
          case "done":
            await ctx.announce(channel, outcome.record.text, platform);
            return outcome.record;
          case "cooldown":
            throw new BotRouteError(429, "OVATION_ERR_SHOUTOUTS_COOLDOWN", `Shoutouts are cooling down: try again in ${outcome.seconds} s.`);
          case "target_cooldown":
            throw new BotRouteError(429, "OVATION_ERR_SHOUTOUTS_COOLDOWN", `${outcome.name} got a shoutout ${outcome.minutes} min ago.`);
          case "unknown":
            throw new BotRouteError(404, "OVATION_ERR_SHOUTOUTS_UNKNOWN_USER", `${platform} knows no streamer named ${outcome.name}.`);
          default:
            throw new BotRouteError(422, "OVATION_ERR_SHOUTOUTS_INVALID", "The username field is not a login.", { username: ["must be a login"] });
        }
      },
    },
  ];
}
