import { z } from "zod";
import type { BotModuleLog, BotModuleRoute, BotRouteRequest } from "../../runtime/bot-module.js";
import { fieldsRouteError, routeValidationError } from "../field-errors.js";
import { routeError } from "../route-errors.js";
import { TIMERS_ERROR_CODES, TIMER_LIMITS, timerSchema } from "./timer-record.js";
import type { Timer } from "./timer-record.js";
import type { TimerModule } from "./timer-module.js";

/** The token scope of the timer routes. */
export const TIMERS_SCOPE = "chatbot:manage:timers";

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

/** A stored timer: its fields, the id the store gave it and when it was made and last changed. */
export interface StoredTimer extends Timer {
  readonly id: number;
  readonly created_at: string;
  readonly updated_at: string;
}

/**
 * Where a bot keeps its timers (the server: its timers repository). Timers are records with ids,
 * each channel's apart; `update` and `remove` answer null / false for an id the channel lacks.
 */
export interface TimerRecords {
  list(channel: string): readonly StoredTimer[];
  get(channel: string, id: number): StoredTimer | null;
  create(channel: string, fields: Timer): StoredTimer;
  update(channel: string, id: number, fields: Timer): StoredTimer | null;
  remove(channel: string, id: number): boolean;
}

/** What the timer routes ask of the timers module (`TimersBotModule` fits). */
export interface TimerRoutesTarget {
  readonly timers: Pick<TimerModule, "prepare" | "status">;
  /** Loads the channel's stored timers again (after a change). */
  reload(channel: string, log: BotModuleLog): void;
}

/** The timer fields of a stored timer (what is validated, saved and loaded). */
export function timerFields(record: StoredTimer): Timer {
  return {
    name: record.name,
    message: record.message,
    interval_minutes: record.interval_minutes,
    min_chat_lines: record.min_chat_lines,
    platforms: [...record.platforms],
    send_as: record.send_as,
    enabled: record.enabled,
  };
}

const itemParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/**
 * The timers' API (docs/timers.md), mounted at `/v1/bots/{user}/timers` (scope
 * `chatbot:manage:timers`): list, create, read, replace, delete. A timer's message may be a
 * template, compiled when saved (a syntax error answers 422 with its line and column) and run in the
 * command sandbox. Names are unique per bot (case-insensitive); a bot has at most 50 timers.
 */
export function timerRoutes(target: TimerRoutesTarget, records: TimerRecords): BotModuleRoute[] {
  const notFound = () => routeError(TIMERS_ERROR_CODES, "OVATION_ERR_TIMERS_NOT_FOUND");
  const present = (request: BotRouteRequest, record: StoredTimer): z.infer<typeof timerViewSchema> => {
    const status = target.timers.status(request.channel).find((s) => s.name.toLowerCase() === record.name.toLowerCase());
    const platforms = (status?.platforms ?? []).map((p) => ({ ...p, next_post_at: p.last_post_at + record.interval_minutes * 60_000 }));
    return { id: record.id, ...timerFields(record), status: platforms, live: request.context.isLive(request.channel), created_at: record.created_at, updated_at: record.updated_at };
  };
  /** Validates and compiles a timer and checks it against the channel's others (`exceptId`: the one replaced). */
  const prepare = (channel: string, body: unknown, exceptId: number | null): Timer => {
    let record: Timer;
    try {
      record = target.timers.prepare(body).record;
    } catch (error) {
      return fieldsRouteError(error, "message");
    }
    const others = records.list(channel).filter((t) => t.id !== exceptId);
    if (others.some((t) => t.name.toLowerCase() === record.name.toLowerCase())) {
      throw routeError(TIMERS_ERROR_CODES, "OVATION_ERR_TIMERS_NAME_TAKEN", { errors: { name: [`The name has already been taken: another timer is named ${record.name}.`] } });
    }
    if (exceptId === null && others.length >= TIMER_LIMITS.timersPerBot) {
      const message = `A bot has at most ${TIMER_LIMITS.timersPerBot} timers.`;
      throw routeValidationError({ name: [message] });
    }
    return record;
  };
  const id = (request: BotRouteRequest) => Number(request.params["id"]);
  return [
    {
      method: "GET",
      path: "timers",
      scope: TIMERS_SCOPE,
      summary: "List the timers",
      response: z.object({ data: z.array(timerViewSchema) }),
      handle: (request) => ({ data: records.list(request.channel).map((record) => present(request, record)) }),
    },
    {
      method: "POST",
      path: "timers",
      scope: TIMERS_SCOPE,
      summary: "Create a timer",
      description: "Posts `message` every `interval_minutes` while the stream is online, on each platform where at least `min_chat_lines` chat lines were seen since its last post there.",
      body: timerSchema,
      response: timerViewSchema,
      status: 201,
      handle(request) {
        const record = records.create(request.channel, prepare(request.channel, request.body, null));
        target.reload(request.channel, request.context.log);
        return present(request, record);
      },
    },
    {
      method: "GET",
      path: "timers/:id",
      scope: TIMERS_SCOPE,
      summary: "Get a timer",
      errors: [404],
      params: itemParams,
      response: timerViewSchema,
      handle(request) {
        const record = records.get(request.channel, id(request));
        if (record === null) throw notFound();
        return present(request, record);
      },
    },
    {
      method: "PUT",
      path: "timers/:id",
      scope: TIMERS_SCOPE,
      summary: "Replace a timer",
      errors: [404],
      params: itemParams,
      body: timerSchema,
      response: timerViewSchema,
      handle(request) {
        if (records.get(request.channel, id(request)) === null) throw notFound();
        const record = records.update(request.channel, id(request), prepare(request.channel, request.body, id(request)));
        if (record === null) throw notFound();
        target.reload(request.channel, request.context.log);
        return present(request, record);
      },
    },
    {
      method: "DELETE",
      path: "timers/:id",
      scope: TIMERS_SCOPE,
      summary: "Delete a timer",
      errors: [404],
      params: itemParams,
      status: 204,
      handle(request) {
        if (!records.remove(request.channel, id(request))) throw notFound();
        target.reload(request.channel, request.context.log);
      },
    },
  ];
}
