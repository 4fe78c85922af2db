import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { connect, join, nextEvent } from "../socket-helpers.js";
import { useCompatServer } from "./fixture.js";

// Documented requests of the alert endpoints, sent as written; each answer checked for the
// documented NotifySub shape (docs/compatibility.md, "Alert notifications").
const server = useCompatServer();

/** The reference's variant 2 example, field by field (fixtures/alerts/reference-variant2.json). */
const variant2Example = (
  JSON.parse(readFileSync(new URL("../../../../../fixtures/alerts/reference-variant2.json", import.meta.url), "utf8")) as {
    request: { template: Record<string, unknown>; data: Record<string, unknown> };
  }
).request;

type Notification = {
  subscription: { type: string; version: string; condition: { platform: string; platform_id: string } };
  notification: { id: string; created_at: string };
  event: Record<string, unknown>;
  ovation?: Record<string, unknown>;
};

function expectNotifySubShape(body: unknown, type: string): Notification {
  const n = body as Notification;
  expect(Object.keys(n).sort()).toEqual(["event", "notification", "ovation", "subscription"]);
  expect(n.subscription).toEqual({ type, version: "1", condition: { platform: expect.any(String), platform_id: expect.any(String) } });
  expect(n.notification).toEqual({ id: expect.any(String), created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/) });
  return n;
}

describe("POST /v1/alerts as documented", () => {
  test("variant 1 {template: follow}: event.name at the top level, condition is the streamer's Twitch id", async () => {
    const res = await server.send("POST", "/v1/alerts", { template: "follow", data: { name: "Someone" } });
    expect(res.status).toBe(201);
    const n = expectNotifySubShape(res.body, "follow");
    expect(n.event).toEqual({ name: "Someone" });
    expect(n.subscription.condition).toEqual({ platform: "twitch", platform_id: server.twitchId });
    expect(n.ovation).toMatchObject({ template: null, test: false, random: expect.any(Number) });
  });

  test("variant 2: the reference's example is accepted unmodified (font_size 1.4 is relative)", async () => {
    const res = await server.send("POST", "/v1/alerts", variant2Example);
    expect(res.status).toBe(201);
    const n = expectNotifySubShape(res.body, "custom");
    expect(n.event).toEqual({ message: "Hello World!", label: "ovation/custom-alert" });
    expect(n.ovation?.["template"]).toEqual(variant2Example.template);
    expect(n.subscription.condition).toEqual({ platform: "own3d", platform_id: String(server.user.userId) });
  });

  test("variant 3 (custom html/css/js with fields) is accepted; a custom event carries the caller's label", async () => {
    const res = await server.send("POST", "/v1/alerts", {
      template: { user_defaults: true, html: "<div class=\"a\">{title}</div>", css: ".a{color:{color}}", js: "", fields: { title: "{{name}} did it", color: "#ff0000" } },
      data: { name: "Zoe", label: "example.com/example-event" },
    });
    expect(res.status).toBe(201);
    expect(expectNotifySubShape(res.body, "custom").event).toEqual({ name: "Zoe", label: "example.com/example-event" });
  });

  test("a donation uses the platform the caller gave, and own3d (the documented identifier) by default", async () => {
    const data = { name: "Ann", currency: "USD", amount: "5.00", message: "hi" };
    const plain = await server.send("POST", "/v1/alerts", { template: "donation", data });
    expect(expectNotifySubShape(plain.body, "donation").subscription.condition.platform).toBe("own3d");
    expect((plain.body as Notification).event).toEqual(data);
    const given = await server.send("POST", "/v1/alerts", { template: "donation", data, platform: "ovation" });
    expect((given.body as Notification).subscription.condition.platform).toBe("ovation");
  });

  test("POST /v1/alerts/test with the deprecated topic and with template", async () => {
    const topic = await server.send("POST", "/v1/alerts/test", { topic: "follow" });
    expect(topic.status).toBe(201);
    expect(topic.headers.get("deprecation")).toMatch(/^@\d+$/);
    const n = expectNotifySubShape(topic.body, "follow");
    expect(n.event).toEqual({ name: expect.any(String) });
    expect(n.ovation?.["test"]).toBe(true);
    const template = await server.send("POST", "/v1/alerts/test", { template: "cheer" });
    expect(Object.keys(expectNotifySubShape(template.body, "cheer").event)).toEqual(expect.arrayContaining(["name", "amount", "message"]));
  });
});

describe("socket: join the documented room, receive notifysub", () => {
  test("the room <user_uuid>.twitch.<twitch id> receives the same documented shape as the HTTP answer", async () => {
    const socket = await connect(server.url, { token: server.user.token });
    try {
      const room = `${server.user.uuid}.twitch.${server.twitchId}`;
      expect(await join(socket, room)).toEqual({ joined: room });
      const received = nextEvent(socket, "notifysub");
      const res = await server.send("POST", "/v1/alerts", { template: "raid", data: { name: "Raider", count: 42 } });
      const pushed = await received;
      expect(pushed).toEqual(res.body);
      expect(pushed.event).toEqual({ name: "Raider", count: 42 });
    } finally {
      socket.close();
    }
  });
});

describe("browser sources and alert configs as documented", () => {
  test("POST /v1/browser-source/generate answers the documented record", async () => {
    const res = await server.send("POST", "/v1/browser-source/generate", { browser_source_type: "alerts" });
    expect(res.status).toBe(201);
    const record = res.body as Record<string, unknown>;
    // The documented record, plus Ovation's `settings` (the source's options; docs/compatibility.md).
    expect(Object.keys(record).sort()).toEqual(["access_token", "browser_source_type", "browser_source_url", "created_at", "id", "identifier", "settings", "updated_at", "user_id"]);
    expect(record["settings"]).toBeTypeOf("object");
    expect(record).toMatchObject({ id: expect.any(Number), browser_source_type: "alerts", user_id: String(server.user.userId) });
    expect(record["browser_source_url"]).toBe(`http://127.0.0.1:8080/browser-source/alerts/${String(record["access_token"])}`);
    for (const [type, identifier] of [["effect-alerts", undefined], ["scenes", "490885"], ["goalbars", "42"]] as const) {
      const other = await server.send("POST", "/v1/browser-source/generate", { browser_source_type: type, ...(identifier ? { identifier } : {}) });
      expect(other.status).toBe(201);
      expect((other.body as Record<string, unknown>)["identifier"]).toBe(identifier ?? null);
    }
  });

  test("POST /v1/alert-configs/{id}/migrate {engine: ae4} turns an AE3 set into AE4, font pixels into relative sizes", async () => {
    const doc = JSON.parse(readFileSync(new URL("../../../../../fixtures/ae3/cheer-tiers.ae3.json", import.meta.url), "utf8")) as Record<string, unknown>;
    const { id: _id, user_id: _user, active: _active, ...body } = doc;
    const created = await server.send("POST", "/v1/alert-configs", { name: "Old", ...body });
    expect(created.status).toBe(201);
    const id = (created.body as { id: number }).id;
    const migrated = await server.send("POST", `/v1/alert-configs/${id}/migrate`, { engine: "ae4" });
    expect(migrated.status).toBe(200);
    const set = migrated.body as { version: number; defaults: { default: Record<string, unknown> }[]; default?: Record<string, unknown> };
    expect(set.version).toBe(4);
    const sizes = [set.default?.["font_size"], ...set.defaults.map((d) => d.default["font_size"])].filter((v): v is number => typeof v === "number");
    expect(sizes.length).toBeGreaterThan(0);
    // cheer-tiers.ae3.json uses 40 px: 40 / 36 of the layout's base size.
    expect(sizes).toContain(1.1111);
  });

  test("GET /v1/users answers the caller", async () => {
    const res = await server.send("GET", "/v1/users");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: server.user.userId, name: "Ghost" });
  });

  test("POST /v1/bots/{user}/commands with the documented example", async () => {
    const example = { command: "bal", response: "{{ proxy_pass('https://example.com/api/commands') }}", command_aliases: ["$"] };
    const res = await server.send("POST", `/v1/bots/${server.user.userId}/commands`, example);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ command: "bal", commands: ["bal", "$"], command_aliases: ["$"], response: example.response });
  });
});
