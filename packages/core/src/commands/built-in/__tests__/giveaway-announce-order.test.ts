import { describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import { chatEvent } from "../../__tests__/chat-events.js";
import { InMemoryKeyValueStore } from "../../key-value-store.js";
import { GiveawayModule } from "../../modules/giveaways/giveaway-module.js";
import type { GiveawayState } from "../../modules/giveaways/giveaway-record.js";
import { BotRouteError } from "../../runtime/bot-module.js";
import type { BotModuleContext } from "../../runtime/bot-module.js";
import { GiveawaysBotModule } from "../index.js";

const CHANNEL = "chan-1";

/**
 * The giveaways module with a store port the test drives: `onChange` keeps what the module stores,
 * `persisted` settles when the test says (a slow write) or rejects (a failed one). `events` is the
 * order in which writes settled and chat heard of a step.
 */
function bot() {
  const events: string[] = [];
  const stored: GiveawayState[] = [];
  const logged: string[] = [];
  let write: () => Promise<void> = async () => {
    events.push("stored");
  };
  const giveaways = new GiveawaysBotModule({
    giveaways: new GiveawayModule({ onChange: (_channel, state) => void stored.push(structuredClone(state)) }),
    persisted: () => write(),
  });
  const context: BotModuleContext = {
    store: new InMemoryKeyValueStore(),
    now: () => Date.now(),
    language: () => "en",
    isLive: () => true,
    announce: async (_channel, text) => void events.push(`said: ${text}`),
    platformAction: async () => ({ result: "unavailable", reason: "no platform here" }),
    publish: () => {},
    log: { info: () => {}, warn: () => {}, error: (_f, m) => void logged.push(m) },
  };
  const call = async (method: string, path: string, body?: unknown) => {
    const route = giveaways.routes.find((r) => r.method === method && r.path === path);
    if (route === undefined) throw new Error(`no route ${method} ${path}`);
    const parse = (schema: ZodType | undefined, value: unknown) => (schema === undefined ? value : schema.parse(value));
    return route.handle({ channel: CHANNEL, params: {}, query: {}, body: parse(route.body, body), context });
  };
  const refused = (work: Promise<unknown>) =>
    work.then(
      (answer) => {
        throw new Error(`expected a BotRouteError, got ${JSON.stringify(answer)}`);
      },
      (error: unknown) => {
        if (!(error instanceof BotRouteError)) throw error;
        return { status: error.status, code: error.code, message: error.message };
      },
    );
  const enter = async (user: string) => giveaways.onChat({ event: chatEvent("!win", { user, username: user }), plugin: "twitch", channel: CHANNEL });
  return { giveaways, events, stored, logged, call, refused, enter, setWrite: (next: () => Promise<void>) => void (write = next) };
}

const failed = { status: 503, code: "OVATION_ERR_STORE_WRITE_FAILED", message: "The change could not be stored; try again later." };

describe("a giveaway step is announced only once the store has it", () => {
  it("a write that fails answers 503 for open, close, draw and reroll, and chat hears nothing", async () => {
    const { events, logged, call, refused, enter, setWrite } = bot();
    setWrite(async () => {
      throw new Error("EROFS: read-only file system");
    });
    expect(await refused(call("POST", "giveaways", { keyword: "!win" }))).toEqual(failed);
    expect(events).toEqual([]);
    // The step stays in memory (not rolled back): the store has it in its memory too, only not on disk.
    expect(await call("GET", "giveaways")).toMatchObject({ data: { status: "open" } });

    // Entries and a draw with a working store, then the store fails.
    setWrite(async () => void events.push("stored"));
    await enter("v1");
    await enter("v2");
    await enter("v3");
    const drawn = (await call("POST", "giveaways/draw")) as { winners: { user_platform_id: string }[] };
    expect(events).toEqual(["stored", expect.stringMatching(/^said: /)]);
    setWrite(async () => {
      throw new Error("disk full");
    });
    events.length = 0;
    expect(await refused(call("POST", "giveaways/draw"))).toEqual(failed);
    expect(await refused(call("POST", "giveaways/reroll", { platform: "twitch", user_platform_id: drawn.winners[0]?.user_platform_id }))).toEqual(failed);
    expect(await refused(call("POST", "giveaways/close"))).toEqual(failed);
    expect(events).toEqual([]);
    expect(logged).toHaveLength(4);
    expect(logged.every((m) => m === "bot module change not stored")).toBe(true);
  });

  it("a slow write: the announcement comes strictly after the write settled, for every step", async () => {
    const { events, stored, call, enter, setWrite } = bot();
    let release: () => void = () => {};
    setWrite(
      () =>
        new Promise<void>((resolve) => {
          release = () => {
            events.push("stored");
            resolve();
          };
        }),
    );
    /** Runs a step, checks chat is silent while the write is pending, then lets the write finish. */
    const step = async (method: string, path: string, body?: unknown) => {
      events.length = 0;
      const answer = call(method, path, body);
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(events, `${path} announced before its write settled`).toEqual([]);
      release();
      const result = await answer;
      expect(events[0]).toBe("stored");
      expect(events[1]).toMatch(/^said: /);
      return result;
    };
    await step("POST", "giveaways", { keyword: "!win" });
    expect(stored.at(-1)?.status).toBe("open");
    expect(events[1]).toBe("said: A giveaway is open: type !win to enter!");
    // Entries are appended by the module's own onChange; the write of each is not awaited by chat.
    setWrite(async () => {});
    await enter("v1");
    await enter("v2");
    setWrite(
      () =>
        new Promise<void>((resolve) => {
          release = () => {
            events.push("stored");
            resolve();
          };
        }),
    );
    await step("POST", "giveaways/close");
    const drawn = (await step("POST", "giveaways/draw")) as { winners: { username: string; user_platform_id: string }[] };
    expect(events[1]).toBe(`said: Congratulations @${drawn.winners[0]?.username ?? ""}, you won!`);
    await step("POST", "giveaways/reroll", { platform: "twitch", user_platform_id: drawn.winners[0]?.user_platform_id });
  });
});
