import { describe, expect, it } from "vitest";
import { GoalBarsBotModule } from "../../built-in/goal-bars-bot-module.js";
import { InMemoryKeyValueStore } from "../../key-value-store.js";
import { BotRouteError } from "../../runtime/bot-module.js";
import type { BotModuleContext, BotModuleRoute } from "../../runtime/bot-module.js";
import { KeyValueCounters } from "../counters/key-value-counters.js";
import type { GoalBarFields, GoalBarRecords, SavedGoalBar } from "../goal-bars/goal-bar-records.js";
import { goalBarsRoutes } from "../goal-bars/goal-bars-routes.js";

/** An embedder's goal bars kept in memory: ids shared by every channel, writes stored a tick later. */
class MemoryGoalBars implements GoalBarRecords {
  readonly rows: (SavedGoalBar & { channel: string })[] = [];
  readonly events: string[] = [];
  #nextId = 1;
  #pending: Promise<void> = Promise.resolve();

  #write(what: string): void {
    this.#pending = new Promise<void>((resolve) => setTimeout(resolve, 5)).then(() => void this.events.push(`stored ${what}`));
  }
  list(channel: string) {
    return this.rows.filter((r) => r.channel === channel).map((r) => structuredClone(r));
  }
  get(channel: string, id: number) {
    return this.list(channel).find((r) => r.id === id) ?? null;
  }
  create(channel: string, fields: GoalBarFields) {
    const at = new Date(0).toISOString();
    const row = { ...structuredClone(fields), id: this.#nextId++, channel, created_at: at, updated_at: at };
    this.rows.push(row);
    this.#write(`create ${row.id}`);
    return structuredClone(row);
  }
  replace(channel: string, id: number, fields: GoalBarFields) {
    const row = this.rows.find((r) => r.channel === channel && r.id === id);
    if (!row) return null;
    Object.assign(row, structuredClone(fields));
    this.#write(`replace ${id}`);
    return structuredClone(row);
  }
  setCurrent(channel: string, id: number, next: (current: number) => number) {
    const row = this.rows.find((r) => r.channel === channel && r.id === id);
    if (!row) return null;
    row.current = next(row.current);
    this.#write(`progress ${id}`);
    return structuredClone(row);
  }
  remove(channel: string, id: number) {
    const index = this.rows.findIndex((r) => r.channel === channel && r.id === id);
    if (index < 0) return false;
    this.rows.splice(index, 1);
    return true;
  }
  channels() {
    return new Set(this.rows.map((r) => r.channel));
  }
  persisted() {
    return this.#pending;
  }
}

function setup() {
  const store = new InMemoryKeyValueStore();
  const records = new MemoryGoalBars();
  const module = new GoalBarsBotModule({ store: records, routes: goalBarsRoutes(records, (channel, goal) => void records.events.push(`told ${channel} ${goal.id} ${goal.current}`)) });
  const context = { store, now: () => Date.parse("2026-11-23T12:00:00Z") } as unknown as BotModuleContext;
  const route = (method: BotModuleRoute["method"], path: string) => {
    const found = module.routes.find((r) => r.method === method && r.path === path);
    if (!found) throw new Error(`no route ${method} ${path}`);
    return found;
  };
  // As the host does: a handler may answer or throw at once, or later.
  const call = async (method: BotModuleRoute["method"], path: string, channel: string, body?: unknown, params: Record<string, string> = {}) =>
    (await route(method, path).handle({ channel, params, query: {}, body, context })) as { id: number; progress: { current: number }; goal_bar: { title: string } };
  return { store, records, module, route, call };
}

describe("the goal bars' routes over an embedder's own storage", () => {
  it("declares the reference's addresses: widgets:manage, tagged `goal bars`, also at /v1/goal-bars for the caller", () => {
    const { module } = setup();
    expect(module.routes.map((r) => `${r.method} ${r.path} ${r.status ?? 200}`)).toEqual([
      "GET goal-bars 200",
      "POST goal-bars 201",
      "GET goal-bars/:id 200",
      "PUT goal-bars/:id 200",
      "POST goal-bars/:id/progress 200",
      "DELETE goal-bars/:id 204",
    ]);
    expect(new Set(module.routes.map((r) => `${r.scope} ${r.tag} ${r.callerPath}`))).toEqual(new Set(["widgets:manage goal bars true"]));
  });

  it("a counter goal starts at its counter; a new start_value moves progress by the difference; a new kind starts again", async () => {
    const { store, call } = setup();
    await new KeyValueCounters(store).put("chan", { name: "deaths", keyword: null, value: 7, active: true });
    const counter = await call("POST", "goal-bars", "chan", { title: "Deaths", kind: "counter", counter: "deaths", target: 50 });
    expect(counter.progress.current).toBe(7);
    const subs = await call("POST", "goal-bars", "chan", { title: "Subs", kind: "subscribers", target: 100, start_value: 25 });
    expect(subs.progress.current).toBe(25);
    const id = String(subs.id);
    expect((await call("POST", "goal-bars/:id/progress", "chan", { operation: "increment", value: 5 }, { id })).progress.current).toBe(30);
    expect((await call("PUT", "goal-bars/:id", "chan", { title: "Subs", kind: "subscribers", target: 100, start_value: 20 }, { id })).progress.current).toBe(25);
    expect((await call("PUT", "goal-bars/:id", "chan", { title: "Follows", kind: "followers", target: 100, start_value: 3 }, { id })).progress.current).toBe(3);
    expect((await call("POST", "goal-bars/:id/progress", "chan", { operation: "decrement", value: 10 }, { id })).progress.current).toBe(0);
    expect((await call("POST", "goal-bars/:id/progress", "chan", { operation: "set", value: 1e12 }, { id })).progress.current).toBe(1e12);
    expect((await call("POST", "goal-bars/:id/progress", "chan", { operation: "increment", value: 1 }, { id })).progress.current).toBe(1e12);
  });

  it("browser sources hear of a change only once it is stored", async () => {
    const { records, call } = setup();
    const goal = await call("POST", "goal-bars", "chan", { title: "Bits", kind: "bits", target: 1000 });
    await call("POST", "goal-bars/:id/progress", "chan", { operation: "set", value: 40 }, { id: String(goal.id) });
    expect(records.events).toEqual([`stored create ${goal.id}`, `told chan ${goal.id} 0`, `stored progress ${goal.id}`, `told chan ${goal.id} 40`]);
  });

  it("another channel's goal bar and an unknown id are OVATION_ERR_GOAL_BARS_NOT_FOUND (404); the 101st is a 422 naming title", async () => {
    const { records, call } = setup();
    const goal = await call("POST", "goal-bars", "mine", { title: "Mine", kind: "tips", target: 10 });
    for (const [method, path, body] of [
      ["GET", "goal-bars/:id", undefined],
      ["PUT", "goal-bars/:id", { title: "Taken", kind: "tips", target: 10 }],
      ["POST", "goal-bars/:id/progress", { value: 1 }],
      ["DELETE", "goal-bars/:id", undefined],
    ] as const) {
      const refused = call(method, path, "theirs", body, { id: String(goal.id) });
      await expect(refused, `${method} ${path}`).rejects.toThrow(BotRouteError);
      await expect(refused).rejects.toMatchObject({ status: 404, code: "OVATION_ERR_GOAL_BARS_NOT_FOUND", message: "No such goal bar." });
    }
    expect(records.get("mine", goal.id)?.title).toBe("Mine");
    for (let i = 1; i < 100; i++) await call("POST", "goal-bars", "mine", { title: `Goal ${i}`, kind: "tips", target: 10 });
    await expect(call("POST", "goal-bars", "mine", { title: "Too many", kind: "tips", target: 10 })).rejects.toMatchObject({
      status: 422,
      code: "OVATION_ERR_HTTP_VALIDATION",
      message: "A user has at most 100 goal bars.",
      errors: { title: ["A user has at most 100 goal bars."] },
    });
    expect(records.list("mine")).toHaveLength(100);
    await call("DELETE", "goal-bars/:id", "mine", undefined, { id: String(goal.id) });
    expect(records.get("mine", goal.id)).toBeNull();
  });
});
