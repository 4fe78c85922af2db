import { BotRouteError } from "@ovation/core";
import type { BotModule } from "@ovation/core";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { buildApp } from "../../app.js";
import type { OvationApp } from "../../app.js";
import { seedUser, tempDataDir, testConfig } from "../../__tests__/helpers.js";
import { listen } from "../../__tests__/socket-helpers.js";
import { TestConsole } from "./console-harness.js";

/** A module of the bot runtime as a third party would write it: a chat command, stored notes, two routes. */
const notes: BotModule = {
  name: "notes",
  stage: "command",
  async onChat(line, ctx) {
    const text = line.event.message.trim();
    if (!text.startsWith("!note ")) return null;
    const note = text.slice("!note ".length);
    const count = (await ctx.store.update(line.channel, "notes", "count", (current) => (typeof current === "number" ? current + 1 : 1))) as number;
    await ctx.store.update(line.channel, "notes", String(count), () => note);
    ctx.publish(line.channel, "notes.updated", { count });
    return { handled: true, answers: [{ text: `note ${count} kept`, send_as: "say" }] };
  },
  routes: [
    {
      method: "GET",
      path: "notes/:id",
      scope: "chatbot:manage",
      summary: "Read a note",
      params: z.object({ id: z.coerce.number().int().min(1) }),
      response: z.object({ id: z.number(), text: z.string() }),
      async handle(request) {
        return { id: Number(request.params["id"]), text: await readNote(request.channel, request.params["id"] ?? "") };
      },
    },
    {
      method: "POST",
      path: "notes",
      scope: "chatbot:manage",
      summary: "Add a note",
      body: z.object({ text: z.string().min(1).max(100) }),
      status: 201,
      handle(request) {
        const { text } = request.body as { text: string };
        if (text === "taken") throw new BotRouteError(409, "OVATION_ERR_NOTES_TAKEN", "That note is taken.");
        return { id: 0, text };
      },
    },
  ],
};
let readNote: (channel: string, id: string) => Promise<string> = async () => "";

describe("a bot module of the runtime, served by the server", () => {
  const data = tempDataDir();
  let app: OvationApp;
  let url: string;
  let owner: ReturnType<typeof seedUser>;
  let other: ReturnType<typeof seedUser>;
  const api = (method: string, path: string, token: string, body?: unknown) =>
    fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

  beforeAll(async () => {
    app = await buildApp({ config: testConfig(data.dir), logger: pino({ level: "silent" }), botModules: { modules: [notes] } });
    url = await listen(app);
    owner = seedUser(app, "Streamer", ["chatbot:manage", "chatbot:manage:commands"]);
    other = seedUser(app, "Other", ["user:read"]);
    readNote = async (channel, id) => {
      const note = (await app.ovation.commands.keyValues.table(channel, "notes"))[id];
      if (typeof note !== "string") throw new BotRouteError(404, "OVATION_ERR_NOTES_NOT_FOUND", `No note ${id}.`);
      return note;
    };
  });
  afterAll(async () => {
    await app.close();
    data.remove();
  });

  it("answers its chat command before the custom commands, keeps its data in the channel's store, and serves its routes", { timeout: 30_000 }, async () => {
    const console = await TestConsole.open(url, { token: owner.token, as: "viewer" });
    try {
      await console.say("!note bring snacks");
      await console.heard("note 1 kept");
    } finally {
      console.close();
    }
    const read = await api("GET", "/v1/bots/@me/notes/1", owner.token);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({ id: 1, text: "bring snacks" });

    const missing = await api("GET", "/v1/bots/@me/notes/9", owner.token);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: "No note 9.", code: "OVATION_ERR_NOTES_NOT_FOUND" });

    const bad = await api("GET", "/v1/bots/@me/notes/zero", owner.token);
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await bad.json())).toContain("params.id");

    const created = await api("POST", "/v1/bots/@me/notes", owner.token, { text: "hello" });
    expect(created.status).toBe(201);
    const empty = await api("POST", "/v1/bots/@me/notes", owner.token, { text: "" });
    expect(empty.status).toBe(422);
    expect(((await empty.json()) as { errors: Record<string, string[]> }).errors).toHaveProperty("text");
    const taken = await api("POST", "/v1/bots/@me/notes", owner.token, { text: "taken" });
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { code: string }).code).toBe("OVATION_ERR_NOTES_TAKEN");
  });

  it("runs every module in the runtime: the built-in ones around the added ones, in the order of registered-modules.ts", () => {
    expect(app.ovation.botModules.runtime.modules().map((m) => `${m.stage} ${m.name}`)).toEqual([
      "guard moderation",
      "observe timers",
      "observe goal-bars",
      "command giveaways",
      "command system",
      "command notes",
      "command commands",
    ]);
  });

  it("checks the token's scope and whose channel it is", async () => {
    expect((await api("GET", "/v1/bots/@me/notes/1", other.token)).status).toBe(403);
    expect((await api("GET", `/v1/bots/${owner.userId}/notes/1`, other.token)).status).toBe(403);
    expect((await api("GET", "/v1/bots/@me/notes/1", "not-a-token")).status).toBe(401);
  });

  it("lists the module's routes in the OpenAPI document", async () => {
    const doc = (await (await fetch(`${url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { tags?: string[] }>> };
    const path = Object.keys(doc.paths).find((p) => p.startsWith("/v1/bots/") && p.endsWith("/notes/{id}"));
    expect(path).toBeDefined();
    expect(doc.paths[path ?? ""]?.["get"]?.tags).toEqual(["bot notes"]);
  });
});
