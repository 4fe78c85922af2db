import { describe, expect, it } from "vitest";
import { chatEvent } from "../../__tests__/chat-events.js";
import type { BotCommandInput } from "../../command-record.js";
import { CommandRuntime } from "../../command-runtime.js";
import { InMemoryKeyValueStore } from "../../key-value-store.js";
import type { CommandFields, StoredCommand } from "../../modules/commands/command-view.js";
import type { CommandRecords } from "../../modules/commands/command-routes.js";
import { BotRouteError } from "../../runtime/bot-module.js";
import type { BotModuleContext, BotModuleRoute } from "../../runtime/bot-module.js";
import { BotRuntime } from "../../runtime/bot-runtime.js";
import { CustomCommandsBotModule } from "../index.js";

const CHANNEL = "chan-1";

/** An embedder's command store: records with ids in a list, as its own database would keep them. */
class ListCommands implements CommandRecords {
  readonly rows: (StoredCommand & { channel: string })[] = [];
  #next = 1;
  list(channel: string) {
    return this.rows.filter((r) => r.channel === channel).map(({ channel: _c, ...r }) => structuredClone(r));
  }
  get(channel: string, id: number) {
    return this.list(channel).find((r) => r.id === id) ?? null;
  }
  create(channel: string, fields: CommandFields) {
    const row = { ...structuredClone(fields), id: this.#next++, channel, created_at: "2026-11-26T00:00:00Z", updated_at: "2026-11-26T00:00:00Z" };
    this.rows.push(row);
    return this.get(channel, row.id) as StoredCommand;
  }
  update(channel: string, id: number, fields: CommandFields) {
    const index = this.rows.findIndex((r) => r.channel === channel && r.id === id);
    const row = this.rows[index];
    if (row === undefined) return null;
    this.rows[index] = { ...row, ...structuredClone(fields), updated_at: "2026-11-27T00:00:00Z" };
    return this.get(channel, id);
  }
  remove(channel: string, id: number) {
    const index = this.rows.findIndex((r) => r.channel === channel && r.id === id);
    if (index < 0) return false;
    this.rows.splice(index, 1);
    return true;
  }
}

/** The custom commands module with its API, over an in-memory store: what another bot would wire. */
function embedder(maxCommands = 3) {
  const store = new InMemoryKeyValueStore();
  const runtime = new CommandRuntime({ store });
  const records = new ListCommands();
  const countersChanged: string[] = [];
  const secrets = new Map<string, string>();
  const module = new CustomCommandsBotModule({
    runtime,
    api: {
      records,
      signingSecrets: { get: (channel) => secrets.get(channel) ?? "first-secret", rotate: (channel) => secrets.set(channel, `rotated-${secrets.size + 1}`).get(channel) ?? "" },
      maxCommands,
      // Stored fields are plain strings; the runtime validates them again as it loads them.
      reload: (channel) => void runtime.setCommands(channel, records.list(channel) as BotCommandInput[]),
      dryRunEvent: (channel, message) => chatEvent(message, { channel }),
      countersChanged: (channel) => void countersChanged.push(channel),
    },
  });
  const context: BotModuleContext = {
    store,
    now: () => Date.now(),
    language: () => "en",
    isLive: () => false,
    announce: async () => {},
    platformAction: async () => ({ result: "unavailable", reason: "no platform here" }),
    publish: () => {},
    log: { info: () => {}, warn: () => {}, error: () => {} },
  };
  const bot = new BotRuntime(context, [module]);
  /** Calls a route as the host would after its checks (the body as the host's validation leaves it). */
  const call = async (method: BotModuleRoute["method"], path: string, body?: unknown, params: Record<string, string> = {}) => {
    const route = module.routes.find((r) => r.method === method && r.path === path);
    if (route === undefined) throw new Error(`no route ${method} ${path}`);
    const parsed = route.body === undefined ? body : route.body.parse(body);
    return route.handle({ channel: CHANNEL, params, query: {}, body: parsed, context });
  };
  /** The error a call throws, or a failure when it does not. */
  const refused = async (method: BotModuleRoute["method"], path: string, body?: unknown, params: Record<string, string> = {}) => {
    try {
      await call(method, path, body, params);
    } catch (error) {
      if (error instanceof BotRouteError) return error;
      throw error;
    }
    throw new Error(`${method} ${path} was not refused`);
  };
  const say = async (message: string, badges: string[] = []) => (await bot.chat({ event: chatEvent(message, { channel: CHANNEL, badges }), plugin: "twitch", channel: CHANNEL })).answers.map((a) => a.text);
  return { module, records, call, refused, say, countersChanged };
}

describe("the commands and counters API of the custom commands module, without a server", () => {
  it("declares the commands routes under the module's tag and the counters' under `counters` with a {bot} segment", () => {
    const { module } = embedder();
    const listed = module.routes.map((r) => `${r.method} ${r.path} ${r.scope} ${r.tag ?? "-"} ${r.userParam ?? "user"}`);
    expect(listed).toContain("POST commands chatbot:manage:commands - user");
    expect(listed).toContain("DELETE commands/:id chatbot:manage:commands - user");
    expect(listed).toContain("GET counters chatbot:read counters bot");
    // The signing secret is the owner's alone, behind an elevated access token.
    expect(module.routes.filter((r) => r.access === "owner-elevated").map((r) => `${r.method} ${r.path}`)).toEqual(["GET signing-secret", "POST signing-secret/rotate"]);
    expect(listed).toContain("POST counters/values chatbot:manage counters bot");
    expect(new CustomCommandsBotModule({ runtime: new CommandRuntime({ store: new InMemoryKeyValueStore() }) }).routes).toEqual([]);
  });

  it("creates a command that answers in chat at once, refuses a taken name and the cap, and deletes it", async () => {
    const bot = embedder(2);
    const created = (await bot.call("POST", "commands", { command: "hello", command_aliases: ["hi"], response: "Hello there", global_cooldown: 0 })) as { id: number; commands: string[] };
    expect(created.commands).toEqual(["hello", "hi"]);
    expect(await bot.say("!hi")).toEqual(["Hello there"]);

    const taken = await bot.refused("POST", "commands", { command: "howdy", command_aliases: ["HI"], response: "x" });
    expect(taken).toMatchObject({ status: 422, code: "OVATION_ERR_COMMANDS_NAME_TAKEN", errors: { command_aliases: [expect.stringContaining("!HI is used by !hello")] } });

    await bot.call("POST", "commands", { command: "bye", response: "Bye" });
    const cap = await bot.refused("POST", "commands", { command: "third", response: "x" });
    expect(cap).toMatchObject({ status: 422, code: "OVATION_ERR_COMMANDS_LIMIT_REACHED", errors: { command: [expect.stringContaining("the limit is 2")] } });
    expect(bot.records.list(CHANNEL).map((c) => c.command)).toEqual(["hello", "bye"]);

    expect(await bot.call("DELETE", "commands/:id", undefined, { id: String(created.id) })).toBeNull();
    expect(await bot.say("!hi")).toEqual([]);
    expect(await bot.refused("GET", "commands/:id", undefined, { id: String(created.id) })).toMatchObject({ status: 404, code: "OVATION_ERR_COMMANDS_NOT_FOUND", message: "No such command." });
  });

  it("answers a command the runtime cannot compile as a 422 naming the field, and keeps nothing", async () => {
    const bot = embedder();
    // This runtime has no template renderer: a template response passes the schema but does not compile.
    const bad = await bot.refused("POST", "commands", { command: "broken", response: "{{ event.user.username }}" });
    expect(bad).toMatchObject({ status: 422, code: "OVATION_ERR_HTTP_VALIDATION", message: expect.stringContaining("The response field is invalid") });
    expect(Object.keys(bad.errors ?? {})).toEqual(["response"]);
    expect(bot.records.list(CHANNEL)).toEqual([]);
  });

  it("answers the signing secret and a new one after a rotation", async () => {
    const bot = embedder();
    expect(await bot.call("GET", "signing-secret")).toEqual({ secret: "first-secret", algorithm: "HMAC-SHA256", headers: { timestamp: "X-Ovation-Timestamp", signature: "X-Ovation-Signature" } });
    expect(await bot.call("POST", "signing-secret/rotate")).toMatchObject({ secret: "rotated-1" });
    expect(await bot.call("GET", "signing-secret")).toMatchObject({ secret: "rotated-1" });
  });

  it("dry-runs a saved command and an unsaved one without changing anything", async () => {
    const bot = embedder();
    await bot.call("POST", "commands", { command: "so", response: "Saved answer", global_cooldown: 0 });
    expect(await bot.call("POST", "commands/test", { message: "!so" })).toMatchObject({ matched: "so", text: "Saved answer", status: "sent" });
    expect(await bot.call("POST", "commands/test", { message: "!draft", command: { command: "draft", response: "Draft answer" } })).toMatchObject({ matched: "draft", text: "Draft answer", status: "sent" });
    expect(await bot.call("POST", "commands/test", { message: "!nothing" })).toMatchObject({ matched: null, status: "no_match" });
    expect(bot.records.list(CHANNEL).map((c) => c.command)).toEqual(["so"]);
  });

  it("keeps counters in the channel's store: a keyword may not be a command's name, every change is reported, chat sees the values", async () => {
    const bot = embedder();
    await bot.call("POST", "commands", { command: "deaths", response: "x" });
    const clash = await bot.refused("POST", "counters", [{ name: "deaths", keyword: "deaths" }]);
    expect(clash).toMatchObject({ status: 422, code: "OVATION_ERR_COUNTERS_CONFLICT", errors: { "0.keyword": [expect.stringContaining("one of your commands")] } });
    expect(await bot.call("GET", "counters")).toEqual([]);
    expect(bot.countersChanged).toEqual([]);

    expect(await bot.call("POST", "counters", [{ name: "falls", keyword: "falls", value: 1 }])).toEqual([{ name: "falls", keyword: "falls", value: 1, active: true }]);
    const values = await bot.call("POST", "counters/values", [{ name: "falls", operation: "increment", value: 4 }]);
    expect(values).toEqual([{ name: "falls", keyword: "falls", value: 5, active: true }]);
    expect(await bot.say("!falls")).toEqual(["falls: 5"]);
    const missing = await bot.refused("POST", "counters/values", [{ name: "falls", operation: "increment" }, { name: "nope", operation: "set", value: 1 }]);
    expect(missing).toMatchObject({ code: "OVATION_ERR_COUNTERS_NOT_FOUND", errors: { "1.name": [expect.any(String)] } });
    expect(await bot.call("GET", "counters")).toEqual([{ name: "falls", keyword: "falls", value: 5, active: true }]);
    expect(bot.countersChanged).toEqual([CHANNEL, CHANNEL]);
  });
});
