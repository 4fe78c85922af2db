import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import type { alertSetViewSchema, browserSourceGenerateBodySchema, counterValuesBodySchema, notifySubSchema, pluginsListingSchema, queueStateSchema } from "@ovation/core/api";
import type { AlertLogUpdate } from "@ovation/core/contracts";
import { createOvationClient } from "../http/index.js";
import type { OvationClient } from "../http/index.js";
import type { ServerEventPayload } from "../socket/index.js";

/**
 * The client's types are the server's schemas: these lines are checked by `tsc` (typecheck), and a
 * wrong body must not compile. The calls are never made.
 */
function typed(client: OvationClient): void {
  expectTypeOf<Awaited<ReturnType<OvationClient["alertSets"]["get"]>>>().toEqualTypeOf<z.output<typeof alertSetViewSchema>>();
  expectTypeOf<Parameters<OvationClient["browserSources"]["generate"]>[0]>().toEqualTypeOf<z.input<typeof browserSourceGenerateBodySchema>>();
  expectTypeOf<Parameters<OvationClient["counters"]["changeValues"]>[0]>().toEqualTypeOf<z.input<typeof counterValuesBodySchema>>();
  expectTypeOf<ServerEventPayload<"notifysub">>().toEqualTypeOf<z.output<typeof notifySubSchema>>();
  // @ts-expect-error not a browser-source type
  void client.browserSources.generate({ browser_source_type: "banner" });
  // @ts-expect-error not a counter operation
  void client.counters.changeValues([{ name: "deaths", operation: "multiply" }]);
  expectTypeOf<Awaited<ReturnType<OvationClient["plugins"]["list"]>>>().toEqualTypeOf<z.output<typeof pluginsListingSchema>>();
  expectTypeOf<Awaited<ReturnType<OvationClient["alerts"]["queue"]>>>().toEqualTypeOf<z.output<typeof queueStateSchema>>();
  expectTypeOf<ServerEventPayload<"alert-log">>().toEqualTypeOf<AlertLogUpdate>();
  // @ts-expect-error not a queue action
  void client.alerts.queue("rewind", { browserSourceId: 1 });
  // @ts-expect-error a goal bar needs a title
  void client.goalBars.create({ kind: "subscribers", target: 10 });
}

describe("typed client", () => {
  it("builds every family without a network call", () => {
    const client = createOvationClient({ baseUrl: "http://127.0.0.1:9/" });
    expect(client.http.baseUrl).toBe("http://127.0.0.1:9");
    expect(Object.keys(client).sort()).toEqual(
      ["account", "alertSets", "alerts", "browserSources", "commands", "counters", "eat", "giveaways", "goalBars", "http", "managers", "media", "moderation", "plugins", "points", "polls", "queue", "quotes", "security", "service", "shoutouts", "simulator", "systemCommands", "timers", "tokens", "tts", "users"].sort(),
    );
    expect(typeof typed).toBe("function");
  });
});
