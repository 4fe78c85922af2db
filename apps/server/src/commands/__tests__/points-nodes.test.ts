import { describe, expect, test } from "vitest";
import type { OvationApp } from "../../app.js";
import { useNodesOnOneDatabase } from "../../__tests__/services/postgres.js";
import { waitFor } from "../../__tests__/socket-helpers.js";

/** The points module's settings route of a node, called as the host calls it. */
function settingsRoute(app: OvationApp, method: "GET" | "PUT") {
  const runtime = app.ovation.botModules.runtime;
  const route = runtime.module("points")?.routes?.find((r) => r.method === method && r.path === "points/settings");
  if (!route) throw new Error(`no ${method} points/settings route`);
  return (channel: string, body?: unknown) => route.handle({ channel, params: {}, query: {}, body, context: runtime.context }) as Promise<{ per_minute: number }>;
}

describe("points settings with two server nodes on one PostgreSQL database", () => {
  const apps = useNodesOnOneDatabase(2);

  test("settings saved through node A are used by node B from its next tick on", async () => {
    const [a, b] = apps as [OvationApp, OvationApp];
    const user = a.ovation.repos.users.create({ name: "Streamer" });
    const channel = String(user.id);
    await a.ovation.repos.store.persisted();
    await waitFor(() => b.ovation.repos.users.get(user.id) !== null, 10_000, "node B to see the user");
    expect((await settingsRoute(b, "GET")(channel)).per_minute).toBe(1);

    expect((await settingsRoute(a, "PUT")(channel, { per_minute: 20 })).per_minute).toBe(20);
    await a.ovation.repos.store.persisted();
    await waitFor(() => JSON.stringify(b.ovation.repos.kv.channelTables(channel)["points_config"] ?? {}).includes('"per_minute":20'), 10_000, "node B to see the stored settings");
    await b.ovation.botModules.tick();
    expect((await settingsRoute(b, "GET")(channel)).per_minute).toBe(20);
  }, 60_000);
});
