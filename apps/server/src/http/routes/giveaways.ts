import { z } from "zod";
import {
  botUserParam,
  giveawayCurrentSchema,
  giveawayDrawBodySchema,
  giveawayDrawSchema,
  giveawayRerollBodySchema,
  giveawayRerollSchema,
  giveawayViewSchema,
} from "@ovation/core/api";
import { BOT_MODULE_ERROR_CODES, BotModuleError, giveawaySettingsSchema } from "@ovation/core";
import type { GiveawayState } from "@ovation/core";
import { resolveUserParam } from "../authenticate.js";
import { ApiError } from "../../errors.js";
import { issuesToApiError } from "../issue-errors.js";
import { authErrorResponses, errorBodySchema } from "../types.js";
import type { ZodApp } from "../types.js";


function present(state: GiveawayState): z.infer<typeof giveawayViewSchema> {
  return {
    ...state,
    entry_count: state.entries.length,
    ticket_count: state.entries.reduce((sum, e) => sum + e.weight, 0),
  };
}

/**
 * The giveaway of `{user}`'s bot (scope `chatbot:manage:giveaways`): open one, read it, close it,
 * draw winners (crypto randomness, weighted by tickets), reroll a winner. Each step is announced in
 * chat when the giveaway's `announce` is on. Entries are stored as they come and survive restarts.
 */
export async function giveawayRoutes(app: ZodApp): Promise<void> {
  const { repos, botModules } = app.ovation;
  const auth = app.ovation.authenticate("chatbot:manage:giveaways");
  const security = [{ bearerAuth: [] }];
  const tags = ["bot giveaways"];
  const params = z.object({ user: botUserParam });
  const conflict = (error: unknown): never => {
    if (error instanceof BotModuleError && error.code === BOT_MODULE_ERROR_CODES.giveawayState) {
      throw new ApiError("OVATION_ERR_GIVEAWAYS_STATE", { message: `${error.message[0]?.toUpperCase() ?? ""}${error.message.slice(1)}.` });
    }
    return issuesToApiError(error, "count");
  };
  const run = async <T>(fn: () => T): Promise<T> => {
    let result: T;
    try {
      result = fn();
    } catch (error) {
      return conflict(error);
    }
    await repos.store.persisted();
    return result;
  };
  const responses = { 409: errorBodySchema, ...authErrorResponses };

  app.get(
    "/v1/bots/:user/giveaways",
    { preHandler: auth, schema: { tags, security, summary: "The current (or last) giveaway", params, response: { 200: giveawayCurrentSchema, ...authErrorResponses } } },
    async (request) => {
      const state = botModules.giveaways.get(String(resolveUserParam(request, request.params.user)));
      return { data: state ? present(state) : null };
    },
  );

  app.post(
    "/v1/bots/:user/giveaways",
    {
      preHandler: auth,
      schema: {
        tags,
        security,
        summary: "Open a giveaway",
        description: "Viewers enter by writing `keyword` as the first word of a chat message. 409 while another giveaway is open.",
        params,
        body: giveawaySettingsSchema,
        response: { 201: giveawayViewSchema, ...responses },
      },
    },
    async (request, reply) => {
      const userId = resolveUserParam(request, request.params.user);
      const state = await run(() => botModules.giveaways.open(String(userId), request.body));
      await botModules.announceGiveaway(userId, state, "opened");
      return reply.code(201).send(present(state));
    },
  );

  app.post(
    "/v1/bots/:user/giveaways/close",
    { preHandler: auth, schema: { tags, security, summary: "Close the open giveaway (no more entries)", params, response: { 200: giveawayViewSchema, ...responses } } },
    async (request) => {
      const userId = resolveUserParam(request, request.params.user);
      const state = await run(() => botModules.giveaways.close(String(userId)));
      await botModules.announceGiveaway(userId, state, "closed");
      return present(state);
    },
  );

  app.post(
    "/v1/bots/:user/giveaways/draw",
    {
      preHandler: auth,
      schema: {
        tags,
        security,
        summary: "Draw winners",
        description: "Draws `count` winners among entrants not drawn before, with crypto.randomInt, each ticket equally likely. Works on an open or closed giveaway.",
        params,
        body: giveawayDrawBodySchema,
        response: { 200: giveawayDrawSchema, ...responses },
      },
    },
    async (request) => {
      const userId = resolveUserParam(request, request.params.user);
      const channel = String(userId);
      const winners = await run(() => botModules.giveaways.draw(channel, request.body.count));
      const state = botModules.giveaways.get(channel) as GiveawayState;
      await botModules.announceGiveaway(userId, state, "winners", winners.map((w) => w.username));
      return { winners, giveaway: present(state) };
    },
  );

  app.post(
    "/v1/bots/:user/giveaways/reroll",
    {
      preHandler: auth,
      schema: {
        tags,
        security,
        summary: "Replace a winner with a new draw",
        params,
        body: giveawayRerollBodySchema,
        response: { 200: giveawayRerollSchema, ...responses },
      },
    },
    async (request) => {
      const userId = resolveUserParam(request, request.params.user);
      const channel = String(userId);
      const winner = await run(() => botModules.giveaways.reroll(channel, request.body));
      const state = botModules.giveaways.get(channel) as GiveawayState;
      await botModules.announceGiveaway(userId, state, "winners", [winner.username]);
      return { winner, giveaway: present(state) };
    },
  );
}
