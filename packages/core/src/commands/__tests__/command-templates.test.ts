import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GuardedHttpClient } from "../../net/guarded-client.js";
import { verifyOvationSignature } from "../../net/signature.js";
import { startLoopbackServer, type LoopbackServer } from "../../net/__tests__/loopback-server.js";
import { TemplateSandbox } from "../../templates/template-sandbox.js";
import { CORPUS_TIMEOUT_MS } from "../../templates/__tests__/template-test-kit.js";
import { CommandError } from "../command-error.js";
import { CommandRuntime } from "../command-runtime.js";
import { InMemoryKeyValueStore, POINTS_TABLE } from "../key-value-store.js";
import { chatEvent } from "./chat-events.js";

const SECRET = "channel-owner-signing-secret";

describe("CommandRuntime with the template sandbox", () => {
  // What the templates answer is under test here, not the clock: a time limit a loaded CI machine cannot hit.
  const sandbox = new TemplateSandbox({ timeoutMs: CORPUS_TIMEOUT_MS });
  const logs: Array<Record<string, unknown>> = [];
  const logger = pino({ level: "warn" }, { write: (line: string) => logs.push(JSON.parse(line) as Record<string, unknown>) });
  const store = new InMemoryKeyValueStore();
  const http = new GuardedHttpClient({ allow: ["127.0.0.1"] });
  let server: LoopbackServer;
  let runtime: CommandRuntime;
  const say = async (message: string, options?: Parameters<typeof chatEvent>[1]) => (await runtime.handle(chatEvent(message, options)))?.text ?? null;

  beforeAll(async () => {
    server = await startLoopbackServer((req, res) => {
      const body = JSON.parse(req.body) as { event: { user: { username: string } }; args: string[] };
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(`${body.event.user.username} has 42 points (${body.args.join(" ")})\n`);
    });
    runtime = new CommandRuntime({ store, renderer: sandbox, http, logger });
    runtime.setSigningSecret("chan-1", SECRET);
    runtime.setCommands("chan-1", [
      { command: "dice", response: "{% set number = random(1, 6) %}{% if number == 6 %}You rolled a lucky 6 today!{% else %}You rolled {{ number }}!{% endif %}", global_cooldown: 0 },
      { command: "8ball", response: '{% set answers = ["Yes", "No", "Maybe", "Ask again later"] %}{{ random(answers) }}', global_cooldown: 0 },
      { command: "hug", response: '{% set target = args[1] %}{% if target %}{{ event.user.username }} sends a hug to {{ target }} <3{% else %}Use "!hug <username>" to send a hug!{% endif %}', global_cooldown: 0 },
      {
        command: "sub",
        response: "{% if event.user.badges|filter(b => b.type == 'subscriber') %}Thank you for being a subscriber, {{ event.user.username }}!{% else %}Hello, {{ event.user.username }}! Consider subscribing for special perks!{% endif %}",
        global_cooldown: 0,
      },
      { command: "bal", command_aliases: ["$"], response: `{{ proxy_pass('${server.origin}/api/commands') }}`, global_cooldown: 0 },
      { command: "death", response: "{{ inc('deaths', 'total') }} deaths so far", global_cooldown: 0 },
      { command: "where", response: "{{ irc.channel }} / {{ command.command }} / {{ irc.message }}", global_cooldown: 0 },
      { command: "meta", response: "{{ proxy_pass('http://169.254.169.254/latest/meta-data/') }}", global_cooldown: 0, price: 5 },
    ]);
  });

  afterAll(async () => {
    await sandbox.close();
    await http.close();
    await server.close();
  });

  it("renders the reference examples as documented", async () => {
    for (let i = 0; i < 10; i++) expect(await say("!dice")).toMatch(/^(You rolled a lucky 6 today!|You rolled [1-5]!)$/);
    expect(["Yes", "No", "Maybe", "Ask again later"]).toContain(await say("!8ball will it work?"));
    expect(await say("!hug bob", { username: "alice" })).toBe("alice sends a hug to bob <3");
    expect(await say("!hug")).toBe('Use "!hug <username>" to send a hug!');
    expect(await say("!sub", { username: "carol", badges: ["subscriber"] })).toBe("Thank you for being a subscriber, carol!");
    expect(await say("!sub", { username: "dave" })).toBe("Hello, dave! Consider subscribing for special perks!");
    expect(await say("!where now")).toBe("streamer / where / !where now");
  });

  it("answers with the proxy_pass reply, signed with the channel's secret", async () => {
    expect(await say("!$ please", { username: "erin" })).toBe("erin has 42 points (!$ please)");
    const last = server.received.at(-1);
    const body = JSON.parse(last?.body ?? "{}") as { version: number; command: { command: string } };
    expect(body.version).toBe(1);
    expect(body.command.command).toBe("bal");
    expect(
      verifyOvationSignature({
        secret: SECRET,
        body: last?.body ?? "",
        timestamp: last?.headers["x-ovation-timestamp"] as string,
        signature: last?.headers["x-ovation-signature"] as string,
      }),
    ).toBe(true);
  });

  it("keeps template data in the channel's store", async () => {
    expect(await say("!death")).toBe("1 deaths so far");
    expect(await say("!death")).toBe("2 deaths so far");
    expect(await store.table("chan-1", "deaths")).toEqual({ total: 2 });
    const dry = await runtime.dryRun(chatEvent("!death"));
    expect(dry).toMatchObject({ status: "sent", action: { text: "3 deaths so far" } });
    expect(await store.table("chan-1", "deaths")).toEqual({ total: 2 });
  });

  it("tells moderators why a template failed, stays silent for viewers, logs it and refunds the price", async () => {
    await store.update("chan-1", POINTS_TABLE, "viewer-9", () => 10);
    expect(await say("!meta", { user: "viewer-9" })).toBeNull();
    expect((await store.table("chan-1", POINTS_TABLE))["viewer-9"]).toBe(10);
    await store.update("chan-1", POINTS_TABLE, "mod-1", () => 5);
    const forMod = await say("!meta", { username: "mod", user: "mod-1", badges: ["moderator"] });
    expect(forMod).toMatch(/^@mod !meta failed: .*169\.254\.169\.254.*link-local/);
    const logged = logs.filter((entry) => entry.msg === "command template failed");
    expect(logged.length).toBe(2);
    expect(logged[0]).toMatchObject({ channel: "chan-1", command: "meta", user: "viewer-9" });
    expect((await store.table("chan-1", POINTS_TABLE))["mod-1"]).toBe(5);
    expect(await say("!hug bob", { username: "alice" })).toBe("alice sends a hug to bob <3");
  });

  it("refuses a template with a syntax error when the commands are saved, with line and column", () => {
    let error: unknown;
    try {
      runtime.setCommands("chan-2", [{ command: "ok", response: "fine" }, { command: "broken", response: "line one\n{% if %}oops" }]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CommandError);
    expect((error as CommandError).details.issues).toEqual([expect.stringMatching(/^1\.response: .*line 2, column \d+/)]);
    expect(runtime.commands("chan-2")).toEqual([]);
  });

  it("survives a runaway template and answers the next command", async () => {
    runtime.setCommands("chan-3", [
      {
        command: "spin",
        response: "{% set n = 0 %}{% for i in range(1, 10000) %}{% for j in range(1, 10000) %}{% set n = n + 1 %}{% endfor %}{% endfor %}{{ n }}",
        global_cooldown: 0,
      },
      { command: "hi", response: "{{ 'hello' | upper }}", global_cooldown: 0 },
    ]);
    const failed = await runtime.dryRun(chatEvent("!spin", { channel: "chan-3" }));
    expect(failed).toMatchObject({ status: "error", command: "spin" });
    expect(failed.status === "error" ? failed.error : "").toMatch(/time|CPU|limit/i);
    expect(await say("!hi", { channel: "chan-3" })).toBe("HELLO");
  });
});
