import { z } from "zod";
import type { BotModuleContext, BotModuleRoute } from "../../runtime/bot-module.js";
import { BOT_MODULE_ERROR_CODES, BotModuleError } from "../module-error.js";
import { fieldsRouteError } from "../field-errors.js";
import { routeError, storedOrRouteError } from "../route-errors.js";
import { GIVEAWAYS_ERROR_CODES, GIVEAWAY_LIMITS, giveawaySettingsSchema } from "./giveaway-record.js";
import type { GiveawayState } from "./giveaway-record.js";
import type { GiveawayModule } from "./giveaway-module.js";

/** The token scope of the giveaway routes. */
export const GIVEAWAYS_SCOPE = "chatbot:manage:giveaways";

const entrySchema = z.object({ platform: z.string(), user_platform_id: z.string(), username: z.string(), weight: z.number(), entered_at: z.number() });

/** A drawn winner, as the API returns it. */
export const giveawayWinnerViewSchema = z.object({ platform: z.string(), user_platform_id: z.string(), username: z.string(), drawn_at: z.number(), rerolled: z.boolean() });

/** A giveaway as the API returns it. */
export const giveawayViewSchema = z
  .object({
    id: z.string(),
    settings: z.object({ title: z.string(), keyword: z.string(), eligibility: z.string(), subscriber_weight: z.number(), announce: z.boolean(), max_entries: z.number() }),
    status: z.enum(["open", "closed"]),
    opened_at: z.number(),
    closed_at: z.number().nullable(),
    entry_count: z.number(),
    ticket_count: z.number(),
    entries: z.array(entrySchema),
    winners: z.array(giveawayWinnerViewSchema).describe("Every winner drawn, in order; a rerolled winner stays listed with rerolled: true"),
  })
  .meta({ id: "Giveaway" });

/** Answer of `GET /v1/bots/{user}/giveaways`. */
export const giveawayCurrentSchema = z.object({ data: giveawayViewSchema.nullable() });

/** Body of `POST /v1/bots/{user}/giveaways/draw` (an empty body draws one). */
export const giveawayDrawBodySchema = z.preprocess((body) => body ?? {}, z.object({ count: z.number().int().min(1).max(GIVEAWAY_LIMITS.maxWinnersPerDraw).default(1) }));

/** Answer of the draw. */
export const giveawayDrawSchema = z.object({ winners: z.array(giveawayWinnerViewSchema), giveaway: giveawayViewSchema });

/** Body of `POST /v1/bots/{user}/giveaways/reroll`. */
export const giveawayRerollBodySchema = z.object({ platform: z.string().min(1).max(32), user_platform_id: z.string().min(1).max(256) });

/** Answer of the reroll. */
export const giveawayRerollSchema = z.object({ winner: giveawayWinnerViewSchema, giveaway: giveawayViewSchema });

/** A giveaway change worth telling chat about. */
export type GiveawayNews = "opened" | "closed" | "winners";

/** What the giveaway routes ask of the giveaways module (`GiveawaysBotModule` fits). */
export interface GiveawayRoutesTarget {
  readonly giveaways: Pick<GiveawayModule, "get" | "open" | "close" | "draw" | "reroll">;
  /** Settles once the channel's giveaway changes so far are stored; rejects when the write failed. */
  persisted(channel: string): Promise<void>;
  /** Tells chat about a change in the channel's language, when the giveaway says to. */
  announce(channel: string, state: GiveawayState, what: GiveawayNews, winners: readonly string[], ctx: BotModuleContext): Promise<void>;
}

function present(state: GiveawayState): z.infer<typeof giveawayViewSchema> {
  return {
    ...state,
    entry_count: state.entries.length,
    ticket_count: state.entries.reduce((sum, e) => sum + e.weight, 0),
  };
}

/**
 * Runs a giveaway step: a step its state does not allow answers 409 `OVATION_ERR_GIVEAWAYS_STATE`
 * saying why ("No giveaway is open."), bad fields 422 naming them.
 */
function step<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof BotModuleError && error.code === BOT_MODULE_ERROR_CODES.giveawayState) {
      throw routeError(GIVEAWAYS_ERROR_CODES, "OVATION_ERR_GIVEAWAYS_STATE", { message: `${error.message[0]?.toUpperCase() ?? ""}${error.message.slice(1)}.` });
    }
    return fieldsRouteError(error, "count");
  }
}

/**
 * The giveaway API (docs/giveaways.md), mounted at `/v1/bots/{user}/giveaways` (scope
 * `chatbot:manage:giveaways`): open one, read it, close it, draw winners (crypto randomness,
 * weighted by tickets), reroll a winner. Each step is announced in chat when the giveaway's
 * `announce` is on, once the step is stored: a step the store could not write answers 503
 * `OVATION_ERR_STORE_WRITE_FAILED` and is not announced. The module stores each change (and each
 * entry as it comes) through its own options, so entries survive restarts.
 */
export function giveawayRoutes(target: GiveawayRoutesTarget): BotModuleRoute[] {
  const { giveaways } = target;
  const current = (channel: string) => giveaways.get(channel) as GiveawayState;
  /** Announces a step once the store has it (never a step that was not stored). */
  const announceStored = async (channel: string, state: GiveawayState, what: GiveawayNews, winners: readonly string[], context: BotModuleContext) => {
    await storedOrRouteError(target.persisted(channel), context.log, { channel, giveaway: state.id, step: what });
    await target.announce(channel, state, what, winners, context);
  };
  return [
    {
      method: "GET",
      path: "giveaways",
      scope: GIVEAWAYS_SCOPE,
      summary: "The current (or last) giveaway",
      response: giveawayCurrentSchema,
      handle({ channel }) {
        const state = giveaways.get(channel);
        return { data: state ? present(state) : null };
      },
    },
    {
      method: "POST",
      path: "giveaways",
      scope: GIVEAWAYS_SCOPE,
      summary: "Open a giveaway",
      description: "Viewers enter by writing `keyword` as the first word of a chat message. 409 while another giveaway is open.",
      body: giveawaySettingsSchema,
      errors: [409],
      response: giveawayViewSchema,
      status: 201,
      async handle({ channel, body, context }) {
        const state = step(() => giveaways.open(channel, giveawaySettingsSchema.parse(body)));
        await announceStored(channel, state, "opened", [], context);
        return present(state);
      },
    },
    {
      method: "POST",
      path: "giveaways/close",
      scope: GIVEAWAYS_SCOPE,
      summary: "Close the open giveaway (no more entries)",
      response: giveawayViewSchema,
      errors: [409],
      async handle({ channel, context }) {
        const state = step(() => giveaways.close(channel));
        await announceStored(channel, state, "closed", [], context);
        return present(state);
      },
    },
    {
      method: "POST",
      path: "giveaways/draw",
      scope: GIVEAWAYS_SCOPE,
      summary: "Draw winners",
      description: "Draws `count` winners among entrants not drawn before, with crypto.randomInt, each ticket equally likely. Works on an open or closed giveaway.",
      body: giveawayDrawBodySchema,
      response: giveawayDrawSchema,
      errors: [409],
      async handle({ channel, body, context }) {
        const winners = step(() => giveaways.draw(channel, giveawayDrawBodySchema.parse(body).count));
        const state = current(channel);
        await announceStored(channel, state, "winners", winners.map((w) => w.username), context);
        return { winners, giveaway: present(state) };
      },
    },
    {
      method: "POST",
      path: "giveaways/reroll",
      scope: GIVEAWAYS_SCOPE,
      summary: "Replace a winner with a new draw",
      body: giveawayRerollBodySchema,
      response: giveawayRerollSchema,
      errors: [409],
      async handle({ channel, body, context }) {
        const winner = step(() => giveaways.reroll(channel, giveawayRerollBodySchema.parse(body)));
        const state = current(channel);
        await announceStored(channel, state, "winners", [winner.username], context);
        return { winner, giveaway: present(state) };
      },
    },
  ];
}
