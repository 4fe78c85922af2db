import { describe, expect, it } from "vitest";
import { InMemoryKeyValueStore } from "../../key-value-store.js";
import { BotRuntime } from "../bot-runtime.js";
import type { BotChatLine, BotModule, BotModuleContext } from "../bot-module.js";

function context(errors: string[] = []): BotModuleContext {
  return {
    store: new InMemoryKeyValueStore(),
    now: () => 0,
    language: () => "en",
    isLive: () => false,
    announce: async () => {},
    platformAction: async () => ({ result: "unavailable", reason: "none" }),
    publish: () => {},
    log: { info: () => {}, warn: () => {}, error: (_f, m) => void errors.push(m) },
  };
}

function line(text: string): BotChatLine {
  return { channel: "1", plugin: "console", event: { message: text } } as unknown as BotChatLine;
}

describe("BotRuntime", () => {
  it("runs guards, then every observer, then commands until one handles the line", async () => {
    const seen: string[] = [];
    const module = (name: string, stage: BotModule["stage"], handles: (t: string) => boolean): BotModule => ({
      name,
      stage,
      onChat: (l) => {
        seen.push(name);
        const text = l.event.message;
        return handles(text) ? { handled: true, answers: [{ text: `${name} answers`, send_as: "say" }] } : null;
      },
    });
    const runtime = new BotRuntime(context(), [
      module("points", "command", (t) => t === "!points"),
      module("count", "observe", () => true),
      module("guard", "guard", (t) => t === "bad"),
      module("custom", "command", () => true),
    ]);
    expect(await runtime.chat(line("!points"))).toEqual({ handled: true, answers: [{ text: "points answers", send_as: "say" }] });
    expect(seen).toEqual(["guard", "count", "points"]);
    seen.length = 0;
    expect(await runtime.chat(line("bad"))).toEqual({ handled: true, answers: [{ text: "guard answers", send_as: "say" }] });
    expect(seen).toEqual(["guard"]);
    seen.length = 0;
    expect(await runtime.chat(line("hello"))).toEqual({ handled: true, answers: [{ text: "custom answers", send_as: "say" }] });
    expect(seen).toEqual(["guard", "count", "points", "custom"]);
  });

  it("logs a module that throws and goes on with the others", async () => {
    const errors: string[] = [];
    const runtime = new BotRuntime(context(errors), [
      { name: "broken", stage: "command", onChat: () => Promise.reject(new Error("boom")) },
      { name: "works", stage: "command", onChat: () => ({ handled: true, answers: [{ text: "ok", send_as: "say" }] }) },
    ]);
    expect(await runtime.chat(line("x"))).toEqual({ handled: true, answers: [{ text: "ok", send_as: "say" }] });
    expect(errors).toEqual(["bot module failed on a chat line"]);
  });

  it("refuses a bad or repeated module name", () => {
    const runtime = new BotRuntime(context());
    expect(() => runtime.register({ name: "Bad Name", stage: "command" })).toThrow(/lowercase/);
    runtime.register({ name: "quotes", stage: "command" });
    expect(() => runtime.register({ name: "quotes", stage: "command" })).toThrow(/twice/);
  });
});
