import { BotRouteError } from "../../runtime/bot-module.js";
import type { BotModuleContext, BotModuleRoute, BotRouteRequest } from "../../runtime/bot-module.js";
import {
  COUNTERS_ERROR_CODES,
  COUNTER_MAX_VALUE,
  counterCreateBodySchema as createBody,
  counterDeleteBodySchema as deleteBody,
  counterListSchema,
  counterUpdateBodySchema as updateBody,
  counterValuesBodySchema as valuesBody,
} from "./counter-record.js";
import type { CountersErrorCode } from "./counter-record.js";
import { CounterRangeError, KeyValueCounters } from "./key-value-counters.js";
import type { Counter } from "./key-value-counters.js";
import { routeError, storedOrRouteError } from "../route-errors.js";

/** Collects per-item problems as Laravel `errors` keyed `<index>.<field>`; throws them all at once. */
class ItemProblems {
  readonly #errors: Record<string, string[]> = {};
  #code: CountersErrorCode | null = null;

  add(index: number, field: string, message: string, code: CountersErrorCode): void {
    (this.#errors[`${index}.${field}`] ??= []).push(message);
    this.#code ??= code;
  }

  throwIfAny(): void {
    const first = Object.entries(this.#errors)[0];
    if (!first || !this.#code) return;
    const more = Object.keys(this.#errors).length - 1;
    const message = `${first[0]}: ${first[1][0] ?? ""}${more > 0 ? ` (and ${more} more error${more > 1 ? "s" : ""})` : ""}`;
    throw routeError(COUNTERS_ERROR_CODES, this.#code, { message, errors: this.#errors });
  }
}

/** Problems of names: repeated in the request, or (not) existing. */
function checkNames(problems: ItemProblems, items: readonly { name: string }[], existing: ReadonlySet<string>, mustExist: boolean): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item.name)) problems.add(index, "name", `The counter ${item.name} appears more than once in this request.`, "OVATION_ERR_COUNTERS_CONFLICT");
    seen.add(item.name);
    if (mustExist && !existing.has(item.name)) problems.add(index, "name", `You have no counter named ${item.name}.`, "OVATION_ERR_COUNTERS_NOT_FOUND");
    if (!mustExist && existing.has(item.name)) problems.add(index, "name", `The counter ${item.name} already exists.`, "OVATION_ERR_COUNTERS_CONFLICT");
  });
}

/** Problems of keywords: taken by another counter (after this request) or by one of the channel's commands (`commandNames`, lowercase). */
function checkKeywords(problems: ItemProblems, commandNames: ReadonlySet<string>, items: readonly { name: string; keyword?: string | null }[], current: readonly Counter[]): void {
  const owner = new Map<string, string>();
  for (const counter of current) if (counter.keyword !== null) owner.set(counter.keyword, counter.name);
  for (const item of items) if (item.keyword !== undefined) for (const [keyword, name] of owner) if (name === item.name) owner.delete(keyword);
  items.forEach((item, index) => {
    if (item.keyword === undefined || item.keyword === null) return;
    const taken = owner.get(item.keyword);
    if (taken !== undefined && taken !== item.name) problems.add(index, "keyword", `The keyword ${item.keyword} is already used by the counter ${taken}.`, "OVATION_ERR_COUNTERS_CONFLICT");
    else if (commandNames.has(item.keyword)) problems.add(index, "keyword", `The keyword ${item.keyword} is the name of one of your commands.`, "OVATION_ERR_COUNTERS_CONFLICT");
    owner.set(item.keyword, item.name);
  });
}

/** What the counters routes need of the host. */
export interface CounterRoutesOptions {
  /** The names and aliases of the channel's commands (a counter keyword may not be one of them). */
  commandNames(channel: string): readonly string[];
  /** After a change of the channel's counters is stored (the host brings its counter goal bars in line). */
  changed?(channel: string, ctx: BotModuleContext): Promise<void> | void;
  /**
   * Settles once the changes made so far are stored; rejects when the write failed (then `changed`
   * is not called and the route answers 503). Without it a change counts as stored at once.
   */
  persisted?(): Promise<void>;
}

const tag = "counters";
const userParam = "bot";

/**
 * The reference's counters API (docs/counters.md), mounted at `/v1/bots/{bot}/counters`: every
 * call takes (and answers) a list, so many counters change in one request; a request with any bad
 * item changes nothing and answers 422 naming each bad item as `<index>.<field>`. Reading needs
 * `chatbot:read`, changing `chatbot:manage`. Counters live in the channel's key-value store
 * (`ctx.store`), where the templates' `inc('counters', ...)` writes too.
 */
export function counterRoutes(options: CounterRoutesOptions): BotModuleRoute[] {
  const countersOf = (request: BotRouteRequest) => new KeyValueCounters(request.context.store);
  const names = (current: readonly Counter[]) => new Set(current.map((c) => c.name));
  const commandNames = (channel: string) => new Set(options.commandNames(channel).map((name) => name.toLowerCase()));
  /** The channel's counters after every item passed `check` (else a 422 naming each bad item). */
  const checked = async (request: BotRouteRequest, check: (problems: ItemProblems, current: Counter[]) => void) => {
    const current = await countersOf(request).list(request.channel);
    const problems = new ItemProblems();
    check(problems, current);
    problems.throwIfAny();
    return current;
  };
  /** Moves the channel's counter goal bars with a change, once the change is stored (never one that was not). */
  const settled = async (request: BotRouteRequest) => {
    await storedOrRouteError(options.persisted?.(), request.context.log, { channel: request.channel, what: "counters" });
    await options.changed?.(request.channel, request.context);
  };
  /** Route fields of a changing call: `chatbot:manage`, a list body, the list answer. */
  const changing = { scope: "chatbot:manage", tag, userParam, response: counterListSchema } as const;

  return [
    {
      method: "GET",
      path: "counters",
      scope: "chatbot:read",
      tag,
      userParam,
      summary: "List the counters",
      response: counterListSchema,
      handle: (request) => countersOf(request).list(request.channel),
    },
    {
      ...changing,
      method: "POST",
      path: "counters",
      summary: "Create counters",
      description: "A list of counters; `value` defaults to null, `active` to true, `keyword` to null. Answers the created counters.",
      body: createBody,
      status: 201,
      async handle(request) {
        const items = createBody.parse(request.body);
        await checked(request, (problems, current) => {
          checkNames(problems, items, names(current), false);
          checkKeywords(problems, commandNames(request.channel), items, current);
        });
        const created: Counter[] = [];
        for (const item of items) {
          created.push(await countersOf(request).put(request.channel, { name: item.name, keyword: item.keyword ?? null, value: item.value ?? null, active: item.active ?? true }));
        }
        await settled(request);
        return created;
      },
    },
    {
      ...changing,
      method: "PATCH",
      path: "counters",
      summary: "Update counters by name",
      description: "A list of `{name, keyword?, active?, value?}`; fields left out keep their value. Answers the updated counters.",
      body: updateBody,
      async handle(request) {
        const items = updateBody.parse(request.body);
        const current = await checked(request, (problems, before) => {
          checkNames(problems, items, names(before), true);
          checkKeywords(problems, commandNames(request.channel), items, before);
        });
        const updated: Counter[] = [];
        for (const item of items) {
          const before = current.find((c) => c.name === item.name) as Counter;
          updated.push(
            await countersOf(request).put(request.channel, {
              name: item.name,
              keyword: item.keyword === undefined ? before.keyword : item.keyword,
              active: item.active ?? before.active,
              value: item.value === undefined ? before.value : item.value,
            }),
          );
        }
        await settled(request);
        return updated;
      },
    },
    {
      ...changing,
      method: "POST",
      path: "counters/values",
      summary: "Change counter values",
      description: "A list of `{name, value, operation}`: `increment`/`decrement` by `value` (default 1), or `set` to `value`. Answers the counters after the change.",
      body: valuesBody,
      async handle(request) {
        const items = valuesBody.parse(request.body);
        await checked(request, (problems, current) => {
          const existing = names(current);
          // The values after each item in turn, to refuse the whole request before anything changes.
          const values = new Map(current.map((c) => [c.name, c.value ?? 0]));
          items.forEach((item, index) => {
            if (!existing.has(item.name)) {
              problems.add(index, "name", `You have no counter named ${item.name}.`, "OVATION_ERR_COUNTERS_NOT_FOUND");
              return;
            }
            if (item.operation === "set") {
              values.set(item.name, item.value ?? 0);
              return;
            }
            const step = item.value ?? 1;
            const next = (values.get(item.name) ?? 0) + (item.operation === "increment" ? step : -step);
            if (Math.abs(next) > COUNTER_MAX_VALUE) problems.add(index, "value", new CounterRangeError(item.name, next).message, "OVATION_ERR_COUNTERS_OUT_OF_RANGE");
            values.set(item.name, next);
          });
        });
        const changed: Counter[] = [];
        for (const [index, item] of items.entries()) {
          try {
            const after = await countersOf(request).change(request.channel, item.name, item.operation, item.value ?? null);
            if (after) changed.push(after);
          } catch (error) {
            // Another writer (a template's inc) moved the value since the check above.
            if (!(error instanceof CounterRangeError)) throw error;
            await settled(request);
            throw new BotRouteError(422, "OVATION_ERR_COUNTERS_OUT_OF_RANGE", `${index}.value: ${error.message}`, { [`${index}.value`]: [error.message] });
          }
        }
        await settled(request);
        return changed;
      },
    },
    {
      ...changing,
      method: "DELETE",
      path: "counters",
      summary: "Delete counters",
      description: "A list of `{name}`. Answers the deleted counters as they were.",
      body: deleteBody,
      async handle(request) {
        const items = deleteBody.parse(request.body);
        const current = await checked(request, (problems, before) => checkNames(problems, items, names(before), true));
        const removed = await countersOf(request).remove(request.channel, items.map((item) => item.name));
        await settled(request);
        return current.filter((c) => removed.includes(c.name));
      },
    },
  ];
}
