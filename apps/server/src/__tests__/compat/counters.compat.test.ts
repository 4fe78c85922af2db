import { describe, expect, test } from "vitest";
import { seedUser } from "../helpers.js";
import { ChatProbe, useCompatServer } from "./fixture.js";

const probe = new ChatProbe();
const server = useCompatServer({ platforms: { env: {}, extra: [probe] } });
const bot = () => `/v1/bots/${server.user.userId}/counters`;

describe("counters API as documented (every body a list)", () => {
  test("create, list, update by name, change values, delete", async () => {
    const created = await server.send("POST", bot(), [{ name: "deaths", keyword: "deaths" }, { name: "wins", value: 3, active: false }]);
    expect(created.status).toBe(201);
    expect(created.body).toEqual([
      { name: "deaths", keyword: "deaths", value: null, active: true },
      { name: "wins", keyword: null, value: 3, active: false },
    ]);
    expect((await server.send("GET", bot())).body).toEqual(created.body);

    const patched = await server.send("PATCH", bot(), [{ name: "wins", active: true, keyword: "wins" }]);
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual([{ name: "wins", keyword: "wins", value: 3, active: true }]);

    const values = await server.send("POST", `${bot()}/values`, [
      { name: "deaths", value: 5, operation: "increment" },
      { name: "deaths", value: 2, operation: "decrement" },
      { name: "wins", value: 10, operation: "set" },
    ]);
    expect(values.status).toBe(200);
    expect(values.body).toEqual([
      { name: "deaths", keyword: "deaths", value: 5, active: true },
      { name: "deaths", keyword: "deaths", value: 3, active: true },
      { name: "wins", keyword: "wins", value: 10, active: true },
    ]);

    const removed = await server.send("DELETE", bot(), [{ name: "wins" }]);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual([{ name: "wins", keyword: "wins", value: 10, active: true }]);
    expect((await server.send("GET", bot())).body).toEqual([{ name: "deaths", keyword: "deaths", value: 3, active: true }]);
  });

  test("a bad item is a 422 naming its index and field, and nothing of the request is applied", async () => {
    const before = (await server.send("GET", bot())).body;
    const shape = await server.send("POST", bot(), [{ name: "ok_one" }, { name: "bad name!" }]);
    expect(shape.status).toBe(422);
    expect(Object.keys((shape.body as { errors: Record<string, string[]> }).errors)).toEqual(["1.name"]);
    const missing = await server.send("POST", `${bot()}/values`, [{ name: "deaths", operation: "increment" }, { name: "nope", value: 1, operation: "set" }]);
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ code: "OVATION_ERR_COUNTERS_NOT_FOUND", errors: { "1.name": [expect.stringContaining("nope")] } });
    const taken = await server.send("POST", bot(), [{ name: "fresh", keyword: "deaths" }]);
    expect(taken.body).toMatchObject({ code: "OVATION_ERR_COUNTERS_CONFLICT", errors: { "0.keyword": [expect.any(String)] } });
    const noValue = await server.send("POST", `${bot()}/values`, [{ name: "deaths", operation: "set" }]);
    expect(Object.keys((noValue.body as { errors: Record<string, string[]> }).errors)).toEqual(["0.value"]);
    expect((await server.send("GET", bot())).body).toEqual(before);
  });

  test("values past 2^53 - 1 and operations that would pass it are refused (422 naming it); nothing changes", async () => {
    const max = Number.MAX_SAFE_INTEGER;
    const tooBig = await server.send("POST", bot(), [{ name: "huge", value: max + 1 }]);
    expect(tooBig.status).toBe(422);
    expect(tooBig.body).toMatchObject({ code: "OVATION_ERR_HTTP_VALIDATION", errors: { "0.value": [expect.stringContaining("9007199254740991")] } });
    expect((await server.send("POST", bot(), [{ name: "edge", value: max - 1 }])).status).toBe(201);
    const last = await server.send("POST", `${bot()}/values`, [{ name: "edge", operation: "increment" }]);
    expect(last.body).toEqual([{ name: "edge", keyword: null, value: max, active: true }]);
    // Two items of one request: the second would pass the limit, so neither is applied.
    const past = await server.send("POST", `${bot()}/values`, [
      { name: "edge", value: 5, operation: "decrement" },
      { name: "edge", value: 10, operation: "increment" },
    ]);
    expect(past.status).toBe(422);
    expect(past.body).toMatchObject({ code: "OVATION_ERR_COUNTERS_OUT_OF_RANGE", message: expect.stringContaining("2^53 - 1"), errors: { "1.value": [expect.stringContaining("edge")] } });
    const low = await server.send("POST", `${bot()}/values`, [{ name: "edge", value: -max, operation: "set" }, { name: "edge", operation: "decrement" }]);
    expect(low.body).toMatchObject({ code: "OVATION_ERR_COUNTERS_OUT_OF_RANGE", errors: { "1.value": [expect.any(String)] } });
    expect((await server.send("GET", bot())).body).toContainEqual({ name: "edge", keyword: null, value: max, active: true });
  });

  test("scopes: chatbot:read reads, chatbot:manage changes; another user's bot is refused", async () => {
    const reader = server.app.ovation.repos.tokens.create({ user_id: server.user.userId, name: "reader", scopes: ["chatbot:read"] }).token;
    expect((await server.send("GET", bot(), undefined, reader)).status).toBe(200);
    expect((await server.send("POST", bot(), [{ name: "x" }], reader)).status).toBe(403);
    expect((await server.send("GET", bot(), undefined, "nope")).status).toBe(401);
    const other = seedUser(server.app, "Other", ["chatbot:read"]);
    expect((await server.send("GET", bot(), undefined, other.token)).status).toBe(403);
  });

  test("the API is documented in the OpenAPI document", async () => {
    const doc = (await server.send("GET", "/openapi.json")).body as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths["/v1/bots/{bot}/counters"] ?? {}).sort()).toEqual(["delete", "get", "patch", "post"]);
    expect(Object.keys(doc.paths["/v1/bots/{bot}/counters/values"] ?? {})).toEqual(["post"]);
  });
});

describe("counters and templates share one store; keywords in chat", () => {
  test("a template's inc() and db('counters') see what the API set, and the API sees what the template wrote", async () => {
    await server.send("POST", bot(), [{ name: "hugs", value: 10 }]);
    const command = { command: "hugcount", response: "{{ inc('counters', 'hugs', 2) }} hugs; db says {{ db('counters').hugs }}" };
    expect((await server.send("POST", `/v1/bots/${server.user.userId}/commands`, command)).status).toBe(201);
    expect(await probe.say("m-1", "!hugcount")).toBe("12 hugs; db says 12");
    expect((await server.send("GET", bot())).body).toContainEqual({ name: "hugs", keyword: null, value: 12, active: true });
  });

  test("a template's inc() and a chat + refuse to pass 2^53 - 1 and leave the counter unchanged", async () => {
    const max = Number.MAX_SAFE_INTEGER;
    await server.send("POST", bot(), [{ name: "top", keyword: "top", value: max }]);
    const command = { command: "topinc", response: "{{ inc('counters', 'top', 1) }}" };
    expect((await server.send("POST", `/v1/bots/${server.user.userId}/commands`, command)).status).toBe(201);
    expect(await probe.say("t-1", "!topinc", true)).toMatch(/failed: .*2\^53 - 1/);
    expect(await probe.say("t-2", "!top +", true)).toBe(`top: ${max} (at its limit, 2^53 - 1)`);
    expect((await server.send("GET", bot())).body).toContainEqual({ name: "top", keyword: "top", value: max, active: true });
  });

  test("!<keyword> shows a counter; + and - change it for moderators only", async () => {
    await server.send("POST", bot(), [{ name: "falls", keyword: "Falls", value: 1 }]);
    expect(await probe.say("k-1", "!falls")).toBe("falls: 1");
    expect(await probe.say("k-2", "!falls +", true)).toBe("falls: 2");
    expect(await probe.say("k-3", "!falls +")).toBe("falls: 2");
    expect(await probe.say("k-4", "!falls -", true)).toBe("falls: 1");
    await server.send("PATCH", bot(), [{ name: "falls", active: false }]);
    // An inactive counter does not answer: the next answer is the command typed after it.
    expect((await server.send("POST", `/v1/bots/${server.user.userId}/commands`, { command: "ping", response: "pong" })).status).toBe(201);
    const before = probe.sent.length;
    expect(probe.context?.emitChat(probe.event("k-5", "!falls")).accepted).toBe(true);
    expect(await probe.say("k-6", "!ping")).toBe("pong");
    expect(probe.sent.slice(before).map((m) => m.text)).toEqual(["pong"]);
  });
});
