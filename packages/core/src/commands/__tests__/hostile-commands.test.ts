import { readdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { GuardedHttpClient } from "../../net/guarded-client.js";
import { startLoopbackServer } from "../../net/__tests__/loopback-server.js";
import { TemplateSandbox } from "../../templates/template-sandbox.js";
import { CommandError } from "../command-error.js";
import { CommandRuntime, type CommandOutcome } from "../command-runtime.js";
import { InMemoryKeyValueStore } from "../key-value-store.js";
import { chatEvent } from "./chat-events.js";

const dir = new URL("../../../../../fixtures/templates/hostile/", import.meta.url);
const corpus = readdirSync(dir)
  .filter((name) => name.endsWith(".twig"))
  .sort()
  .map((name) => ({ name, source: readFileSync(new URL(name, dir), "utf8") }));

describe("the hostile template corpus through the command runtime", () => {
  const sandbox = new TemplateSandbox();
  // Hermetic: no name resolves, so nothing leaves the machine whatever a template asks for.
  const http = new GuardedHttpClient({ resolve: async () => Promise.reject(new Error("ENOTFOUND (test resolver)")) });
  const store = new InMemoryKeyValueStore();
  const runtime = new CommandRuntime({ store, renderer: sandbox, http });
  afterAll(async () => {
    await sandbox.close();
    await http.close();
  });

  it("has the corpus", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40);
  });

  it("refuses each template at save time or ends it with an error or harmless output, and keeps working", async () => {
    const loopback = await startLoopbackServer((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("leaked"));
    const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
    const outcomes: Array<{ name: string; status: string }> = [];
    try {
      for (const { name, source } of corpus) {
        const command = { command: "evil", response: source, global_cooldown: 0 };
        try {
          runtime.prepare(command);
        } catch (error) {
          expect(error).toBeInstanceOf(CommandError);
          expect((error as CommandError).message).toMatch(/^invalid command: response: |^response: /);
          outcomes.push({ name, status: "refused at save" });
          continue;
        }
        const outcome: CommandOutcome = await runtime.dryRun(chatEvent("!evil x", { badges: ["moderator"] }), { command });
        outcomes.push({ name, status: outcome.status });
        expect(["error", "sent", "empty"]).toContain(outcome.status);
        if (outcome.status === "sent") {
          expect(outcome.action.text.length).toBeLessThanOrEqual(500);
          expect(outcome.action.text).not.toMatch(/\[object process\]|function require|leaked/);
        }
        if (outcome.status === "error") expect(outcome.action?.text).toMatch(/^@alice !evil failed: .+/);
        expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }
      expect(loopback.received).toHaveLength(0);
    } finally {
      await loopback.close();
    }
    expect(outcomes.filter((o) => o.status === "error").length).toBeGreaterThan(10);
    runtime.setCommands("chan-1", [{ command: "hug", response: "{{ event.user.username }} hugs {{ args[1] }}", global_cooldown: 0 }]);
    expect((await runtime.handle(chatEvent("!hug bob")))?.text).toBe("alice hugs bob");
  }, 120_000);
});
