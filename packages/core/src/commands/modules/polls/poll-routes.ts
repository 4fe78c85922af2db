import { z } from "zod";
import { BotRouteError } from "../../runtime/bot-module.js";
import type { BotModuleContext, BotModuleRoute } from "../../runtime/bot-module.js";
import { pollInputSchema } from "./poll-record.js";
import type { PollInput, PollView } from "./poll-record.js";
import type { PollStartOutcome } from "./poll-record.js";

/** What the polls' routes need of the module. */
export interface PollRoutesTarget {
  current(channel: string, ctx: BotModuleContext): Promise<PollView | null>;
  history(channel: string, ctx: BotModuleContext): Promise<PollView[]>;
  start(channel: string, input: PollInput, ctx: BotModuleContext): Promise<PollStartOutcome>;
  end(channel: string, ctx: BotModuleContext): Promise<{ poll: PollView } | null>;
}

const platformPollSchema = z.object({ platform: z.string(), poll_id: z.string(), status: z.enum(["running", "ended"]) });

/** A poll as the API answers it. */
export const pollViewSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    status: z.enum(["open", "ended"]),
    opened_at: z.number().int().describe("ms since epoch"),
    ends_at: z.number().int(),
    ended_at: z.number().int().nullable(),
    choices: z.array(z.object({ number: z.number().int(), title: z.string(), votes: z.number().int(), percent: z.number().int() })),
    total: z.number().int(),
    leading: z.array(z.number().int()).describe("Numbers of the leading choices (several on a tie)"),
    native: z.array(platformPollSchema).describe("Platforms running their own poll (their votes are in the choices)"),
    native_unavailable: z.array(z.object({ platform: z.string(), reason: z.string() })).describe("Platforms asked for their own poll that vote in chat instead, and why"),
  })
  .meta({ id: "Poll" });

const SCOPE = "chatbot:manage:polls";

/** The polls' API, mounted at `/v1/bots/{user}/polls...` (docs/polls.md). */
export function pollRoutes(polls: PollRoutesTarget): BotModuleRoute[] {
  return [
    {
      method: "GET",
      path: "polls",
      scope: SCOPE,
      summary: "The current (or last) poll and the ended ones before it",
      response: z.object({ current: pollViewSchema.nullable(), history: z.array(pollViewSchema) }),
      handle: async ({ channel, context: ctx }) => ({ current: await polls.current(channel, ctx), history: await polls.history(channel, ctx) }),
    },
    {
      method: "POST",
      path: "polls",
      scope: SCOPE,
      summary: "Start a poll: the platform's own where it can (Twitch), chat votes (!vote 1) elsewhere",
      errors: [409],
      description: "409 `OVATION_ERR_POLLS_ALREADY_OPEN` while another poll is open.",
      body: pollInputSchema,
      response: pollViewSchema,
      status: 201,
      async handle({ channel, body, context: ctx }) {
        const outcome = await polls.start(channel, body as PollInput, ctx);
        if (!outcome.started) throw new BotRouteError(409, "OVATION_ERR_POLLS_ALREADY_OPEN", "A poll is already open: end it first.");
        return outcome.poll;
      },
    },
    {
      method: "POST",
      path: "polls/end",
      errors: [404],
      scope: SCOPE,
      summary: "End the open poll now (the platforms' own polls too) and announce the result",
      description: "404 `OVATION_ERR_POLLS_NONE_OPEN` when no poll is open.",
      response: pollViewSchema,
      async handle({ channel, context: ctx }) {
        const ended = await polls.end(channel, ctx);
        if (!ended) throw new BotRouteError(404, "OVATION_ERR_POLLS_NONE_OPEN", "No poll is open.");
        return ended.poll;
      },
    },
  ];
}
