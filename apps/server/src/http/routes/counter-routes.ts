import { z } from "zod";
import {
  botUserParam,
  counterCreateBodySchema as createBody,
  counterDeleteBodySchema as deleteBody,
  counterListSchema,
  counterUpdateBodySchema as updateBody,
  counterValuesBodySchema as valuesBody,
} from "@ovation/core/api";
import { resolveUserParam } from "../authenticate.js";
import { ApiError } from "../../errors.js";
import type { ErrorCode } from "../../errors.js";
import { COUNTER_MAX_VALUE } from "@ovation/core/api";
import { CounterRangeError } from "../../store/counters.js";
import type { Counter } from "../../store/counters.js";
import type { Repositories } from "../../store/repositories.js";
import { authErrorResponses } from "../types.js";
import type { ZodApp } from "../types.js";


/** Collects per-item problems as Laravel `errors` keyed `<index>.<field>`; throws them all at once. */
class ItemProblems {
  readonly #errors: Record<string, string[]> = {};
  #code: ErrorCode | null = null;

  add(index: number, field: string, message: string, code: ErrorCode): void {
    (this.#errors[`${index}.${field}`] ??= []).push(message);
    this.#code ??= code;
  }

  throwIfAny(): void {
    const first = Object.entries(this.#errors)[0];
    if (!first || !this.#code) return;
    const more = Object.keys(this.#errors).length - 1;
    const message = `${first[0]}: ${first[1][0] ?? ""}${more > 0 ? ` (and ${more} more error${more > 1 ? "s" : ""})` : ""}`;
    throw new ApiError(this.#code, { message, errors: this.#errors });
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

/** Problems of keywords: taken by another counter (after this request) or by one of the user's commands. */
function checkKeywords(problems: ItemProblems, repos: Repositories, userId: number, items: readonly { name: string; keyword?: string | null }[], current: readonly Counter[]): void {
  const owner = new Map<string, string>();
  for (const counter of current) if (counter.keyword !== null) owner.set(counter.keyword, counter.name);
  for (const item of items) if (item.keyword !== undefined) for (const [keyword, name] of owner) if (name === item.name) owner.delete(keyword);
  const commandNames = new Set(repos.commands.listForUser(userId).flatMap((c) => [c.command, ...c.command_aliases].map((n) => n.toLowerCase())));
  items.forEach((item, index) => {
    if (item.keyword === undefined || item.keyword === null) return;
    const taken = owner.get(item.keyword);
    if (taken !== undefined && taken !== item.name) problems.add(index, "keyword", `The keyword ${item.keyword} is already used by the counter ${taken}.`, "OVATION_ERR_COUNTERS_CONFLICT");
    else if (commandNames.has(item.keyword)) problems.add(index, "keyword", `The keyword ${item.keyword} is the name of one of your commands.`, "OVATION_ERR_COUNTERS_CONFLICT");
    owner.set(item.keyword, item.name);
  });
}

/**
 * The reference's counters API (docs/counters.md): every call takes (and answers) a list, so many counters
 * change in one request; a request with any bad item changes nothing and answers 422 naming each
 * bad item as `<index>.<field>`. Reading needs `chatbot:read`, changing `chatbot:manage`.
 */
export async function counterRoutes(app: ZodApp): Promise<void> {
  const { repos } = app.ovation;
  const { counters } = repos;
  const read = app.ovation.authenticate("chatbot:read");
  const manage = app.ovation.authenticate("chatbot:manage");
  const params = z.object({ bot: botUserParam.describe("The bot's user: `@me` or your user id") });
  const answer = counterListSchema;
  /** Route options of a changing call: `chatbot:manage`, a list body, the list answer of `response`. */
  const changing = <B extends z.ZodType, R extends { 200: typeof answer } | { 201: typeof answer }>(summary: string, description: string, body: B, response: R) => ({
    preHandler: manage,
    schema: { tags: ["counters"], security: [{ bearerAuth: [] }], summary, description, params, body, response: { ...response, ...authErrorResponses } },
  });
  /** The caller's counters after every item passed `check` (else a 422 naming each bad item). */
  const checked = async (bot: string, request: Parameters<typeof resolveUserParam>[0], check: (problems: ItemProblems, current: Counter[], userId: number) => void) => {
    const userId = resolveUserParam(request, bot);
    const current = await counters.list(userId);
    const problems = new ItemProblems();
    check(problems, current, userId);
    problems.throwIfAny();
    return { userId, current };
  };
  const names = (current: readonly Counter[]) => new Set(current.map((c) => c.name));
  /** Waits until a change is on disk and moves the user's counter goal bars with it. */
  const settled = async (userId: number) => {
    await repos.store.persisted();
    await app.ovation.botModules.refreshCounterGoals(userId);
  };

  app.get(
    "/v1/bots/:bot/counters",
    { preHandler: read, schema: { tags: ["counters"], security: [{ bearerAuth: [] }], summary: "List the counters", params, response: { 200: answer, ...authErrorResponses } } },
    async (request) => counters.list(resolveUserParam(request, request.params.bot)),
  );

  app.post(
    "/v1/bots/:bot/counters",
    changing("Create counters", "A list of counters; `value` defaults to null, `active` to true, `keyword` to null. Answers the created counters.", createBody, { 201: answer }),
    async (request, reply) => {
      const { userId } = await checked(request.params.bot, request, (problems, current, user) => {
        checkNames(problems, request.body, names(current), false);
        checkKeywords(problems, repos, user, request.body, current);
      });
      const created: Counter[] = [];
      for (const item of request.body) {
        created.push(await counters.put(userId, { name: item.name, keyword: item.keyword ?? null, value: item.value ?? null, active: item.active ?? true }));
      }
      await settled(userId);
      return reply.code(201).send(created);
    },
  );

  app.patch(
    "/v1/bots/:bot/counters",
    changing("Update counters by name", "A list of `{name, keyword?, active?, value?}`; fields left out keep their value. Answers the updated counters.", updateBody, { 200: answer }),
    async (request) => {
      const { userId, current } = await checked(request.params.bot, request, (problems, before, user) => {
        checkNames(problems, request.body, names(before), true);
        checkKeywords(problems, repos, user, request.body, before);
      });
      const updated: Counter[] = [];
      for (const item of request.body) {
        const before = current.find((c) => c.name === item.name) as Counter;
        updated.push(
          await counters.put(userId, {
            name: item.name,
            keyword: item.keyword === undefined ? before.keyword : item.keyword,
            active: item.active ?? before.active,
            value: item.value === undefined ? before.value : item.value,
          }),
        );
      }
      await settled(userId);
      return updated;
    },
  );

  app.post(
    "/v1/bots/:bot/counters/values",
    changing(
      "Change counter values",
      "A list of `{name, value, operation}`: `increment`/`decrement` by `value` (default 1), or `set` to `value`. Answers the counters after the change.",
      valuesBody,
      { 200: answer },
    ),
    async (request) => {
      const { userId } = await checked(request.params.bot, request, (problems, current) => {
        const existing = names(current);
        // The values after each item in turn, to refuse the whole request before anything changes.
        const values = new Map(current.map((c) => [c.name, c.value ?? 0]));
        request.body.forEach((item, index) => {
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
      for (const [index, item] of request.body.entries()) {
        try {
          const after = await counters.change(userId, item.name, item.operation, item.value ?? null);
          if (after) changed.push(after);
        } catch (error) {
          // Another writer (a template's inc) moved the value since the check above.
          if (!(error instanceof CounterRangeError)) throw error;
          await settled(userId);
          throw new ApiError("OVATION_ERR_COUNTERS_OUT_OF_RANGE", { message: `${index}.value: ${error.message}`, errors: { [`${index}.value`]: [error.message] } });
        }
      }
      await settled(userId);
      return changed;
    },
  );

  app.delete(
    "/v1/bots/:bot/counters",
    changing("Delete counters", "A list of `{name}`. Answers the deleted counters as they were.", deleteBody, { 200: answer }),
    async (request) => {
      const { userId, current } = await checked(request.params.bot, request, (problems, before) => checkNames(problems, request.body, names(before), true));
      const removed = await counters.remove(userId, request.body.map((item) => item.name));
      await settled(userId);
      return current.filter((c) => removed.includes(c.name));
    },
  );
}
