import { describe, expect, test } from "vitest";
import { useTwoUserApp } from "./helpers.js";

const fx = useTwoUserApp();
const call = fx.call;

describe("/v1/bots/{user}/commands", () => {
  test("register, list, read, replace and delete; commands lists the base name and the aliases", async () => {
    const created = await call("POST", `/v1/bots/${fx.alice.userId}/commands`, fx.alice.token, { command: "!discord", response: "Join us at example.com", command_aliases: ["dc", "$"] });
    expect(created.statusCode).toBe(201);
    const command = created.json();
    expect(command).toMatchObject({ command: "discord", commands: ["discord", "dc", "$"], command_aliases: ["dc", "$"], permissions: 0, price: 0, is_visible: true });
    expect((await call("GET", "/v1/bots/@me/commands", fx.alice.token)).json().data).toHaveLength(1);
    expect((await call("GET", `/v1/bots/@me/commands/${command.id}`, fx.alice.token)).json().command).toBe("discord");
    const replaced = await call("PUT", `/v1/bots/@me/commands/${command.id}`, fx.alice.token, { command: "discord", response: "New text", user_cooldown: 30 });
    expect(replaced.json()).toMatchObject({ response: "New text", user_cooldown: 30, command_aliases: [] });
    expect((await call("DELETE", `/v1/bots/@me/commands/${command.id}`, fx.alice.token)).statusCode).toBe(204);
    expect((await call("GET", `/v1/bots/@me/commands/${command.id}`, fx.alice.token)).statusCode).toBe(404);
  });

  test("another user's path is 403", async () => {
    const res = await call("POST", `/v1/bots/${fx.alice.userId}/commands`, fx.bob.token, { command: "x", response: "y" });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe("OVATION_ERR_AUTH_NOT_YOUR_USER");
  });

  test("a name or alias used by another command is a 422", async () => {
    await call("POST", "/v1/bots/@me/commands", fx.bob.token, { command: "lurk", response: "lurking" });
    const res = await call("POST", "/v1/bots/@me/commands", fx.bob.token, { command: "hide", response: "x", command_aliases: ["LURK"] });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe("OVATION_ERR_COMMANDS_NAME_TAKEN");
  });

  test("invalid fields are named", async () => {
    const res = await call("POST", "/v1/bots/@me/commands", fx.bob.token, { command: "two words", response: "", permissions: 9 });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(expect.arrayContaining(["command", "response", "permissions"]));
  });

  test("a template syntax error answers 422 with the line and column of the mistake", async () => {
    const response = "Hello {{ event.user.username }}!\n{% if args[1] %}\n  {{ args[1] | upper( }}\n{% endif %}";
    const res = await call("POST", "/v1/bots/@me/commands", fx.bob.token, { command: "broken2", response });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.code).toBe("OVATION_ERR_HTTP_VALIDATION");
    expect(body.errors.response[0]).toMatch(/line 3/);
    expect(body.details).toMatchObject({ field: "response", line: 3 });
    expect(body.details.column).toBeGreaterThan(1);
    const created = (await call("POST", "/v1/bots/@me/commands", fx.bob.token, { command: "fine", response: "ok" })).json();
    const put = await call("PUT", `/v1/bots/@me/commands/${created.id}`, fx.bob.token, { command: "fine", response: "{{ 1 +" });
    expect(put.statusCode).toBe(422);
    expect(put.json().details).toMatchObject({ field: "response", line: 1 });
    expect((await call("GET", `/v1/bots/@me/commands/${created.id}`, fx.bob.token)).json().response).toBe("ok");
  });

  test("the dry run tests an unsaved command when one is given, and answers its template error like a save", async () => {
    const unsaved = { command: "draft", response: "{{ event.user.username }} tried {{ args[1] }}", permissions: "moderator" };
    const asViewer = await call("POST", "/v1/bots/@me/commands/test", fx.bob.token, { message: "!draft it", command: unsaved, event: { user: { username: "Zoe" } } });
    expect(asViewer.json()).toMatchObject({ matched: "draft", status: "permission" });
    const moderator = [{ type: "moderator", text: null, id: "moderator/1", count: null }];
    const asMod = await call("POST", "/v1/bots/@me/commands/test", fx.bob.token, { message: "!draft it", command: unsaved, event: { user: { username: "Zoe", badges: moderator } } });
    expect(asMod.json()).toMatchObject({ matched: "draft", text: "Zoe tried it", status: "sent" });
    expect((await call("GET", "/v1/bots/@me/commands", fx.bob.token)).json().data.map((c: { command: string }) => c.command)).not.toContain("draft");
    const broken = await call("POST", "/v1/bots/@me/commands/test", fx.bob.token, { message: "!draft", command: { command: "draft", response: "ok\n{% if %}" } });
    expect(broken.statusCode).toBe(422);
    expect(broken.json().details).toMatchObject({ field: "response", line: 2 });
  });

  test("the scope chatbot:manage:commands is required", async () => {
    const { token } = fx.app.ovation.repos.tokens.create({ user_id: fx.alice.userId, name: "t", scopes: ["alerts:manage"] });
    expect((await call("GET", "/v1/bots/@me/commands", token)).statusCode).toBe(403);
  });
});

describe("POST /v1/bots/{user}/commands/test", () => {
  test("runs the reference's template examples in the sandbox", async () => {
    const hug = '{% set target = args[1] %}{% if target %}{{ event.user.username }} sends a hug to {{ target }} <3{% else %}Use "!hug <username>" to send a hug!{% endif %}';
    const sub = "{% if event.user.badges|filter(b => b.type == 'subscriber') %}Thank you for being a subscriber, {{ event.user.username }}!{% else %}Hello, {{ event.user.username }}! Consider subscribing for special perks!{% endif %}";
    expect((await call("POST", "/v1/bots/@me/commands", fx.bob.token, { command: "hug", response: hug })).statusCode).toBe(201);
    expect((await call("POST", "/v1/bots/@me/commands", fx.bob.token, { command: "sub", response: sub })).statusCode).toBe(201);
    const withTarget = await call("POST", "/v1/bots/@me/commands/test", fx.bob.token, { message: "!hug Alice", event: { user: { username: "Zoe" } } });
    expect(withTarget.json()).toMatchObject({ matched: "hug", text: "Zoe sends a hug to Alice <3", error: null });
    expect((await call("POST", "/v1/bots/@me/commands/test", fx.bob.token, { message: "!hug" })).json().text).toBe('Use "!hug <username>" to send a hug!');
    const subscriber = await call("POST", "/v1/bots/@me/commands/test", fx.bob.token, {
      message: "!sub",
      event: { user: { username: "Zoe" }, badges: [{ type: "subscriber", text: null, id: "subscriber/3", count: 3 }] },
    });
    expect(subscriber.json().text).toBe("Thank you for being a subscriber, Zoe!");
    const broken = await call("POST", "/v1/bots/@me/commands", fx.bob.token, { command: "broken", response: "{% if %}" });
    expect(broken.statusCode).toBe(422);
    expect(Object.keys(broken.json().errors)).toContain("response");
  });


  test("dry-runs through permissions and cooldowns without consuming them", async () => {
    await call("POST", "/v1/bots/@me/commands", fx.alice.token, { command: "mods", response: "Moderators only", permissions: "moderator", global_cooldown: 60 });
    await call("POST", "/v1/bots/@me/commands", fx.alice.token, { command: "hi", response: "Hello there", global_cooldown: 60, send_as: "reply" });
    const test1 = await call("POST", "/v1/bots/@me/commands/test", fx.alice.token, { message: "!hi Alice" });
    expect(test1.json()).toEqual({ matched: "hi", text: "Hello there", send_as: "reply", error: null, status: "sent" });
    const test2 = await call("POST", "/v1/bots/@me/commands/test", fx.alice.token, { message: "!hi" });
    expect(test2.json().status).toBe("sent");
    const denied = await call("POST", "/v1/bots/@me/commands/test", fx.alice.token, { message: "!mods" });
    expect(denied.json()).toMatchObject({ matched: "mods", text: null, status: "permission" });
    const allowed = await call("POST", "/v1/bots/@me/commands/test", fx.alice.token, {
      message: "!mods",
      event: { user: { badges: [{ type: "moderator", text: null, id: "moderator/1", count: null }] } },
    });
    expect(allowed.json()).toMatchObject({ matched: "mods", text: "Moderators only", status: "sent" });
    expect((await call("POST", "/v1/bots/@me/commands/test", fx.alice.token, { message: "no command" })).json()).toMatchObject({ matched: null, status: "not_command" });
    expect((await call("POST", "/v1/bots/@me/commands/test", fx.alice.token, { message: "!unknown" })).json()).toMatchObject({ matched: null, status: "no_match" });
  });

  test("a cooldown started by real chat is reported by the dry run, which never starts one itself", async () => {
    expect((await call("POST", "/v1/bots/@me/commands", fx.bob.token, { command: "cool", response: "Cool!", global_cooldown: 600 })).statusCode).toBe(201);
    const dry = () => call("POST", "/v1/bots/@me/commands/test", fx.bob.token, { message: "!cool" }).then((r) => r.json());
    expect(await dry()).toMatchObject({ matched: "cool", text: "Cool!", status: "sent" });
    expect(await dry()).toMatchObject({ matched: "cool", text: "Cool!", status: "sent" });
    const channel = { id: String(fx.bob.userId), platform_id: "b1", username: "bob", avatar_url: "" };
    const chat = (id: string) => ({
      id,
      type: "message",
      timestamp: Date.now(),
      platform: "twitch",
      user: { platform_id: "v1", username: "viewer", avatar_url: "", color: null, badges: [] },
      channel,
      message: "!cool",
      fragments: [{ type: "text", text: "!cool" }],
      parent: null,
      attributes: { edited: false, accent: null, action: false, highlight: false },
    });
    expect(await fx.app.ovation.commands.runtime.handle(chat("real-1"))).toMatchObject({ text: "Cool!" });
    expect(await fx.app.ovation.commands.runtime.handle(chat("real-2"))).toBeNull();
    const cooling = await dry();
    expect(cooling).toMatchObject({ matched: "cool", text: null, status: "cooldown" });
    expect(cooling.error).toMatch(/^cooldown: global cooldown, \d+ s left$/);
  });
});
