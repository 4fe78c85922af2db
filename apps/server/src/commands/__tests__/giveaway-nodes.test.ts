import type { ChatEvent } from "@ovation/core";
import { describe, expect, test } from "vitest";
import type { OvationApp } from "../../app.js";
import { useNodesOnOneDatabase } from "../../__tests__/services/postgres.js";
import { waitFor } from "../../__tests__/socket-helpers.js";

function join(channel: number, viewer: number): ChatEvent {
  return {
    id: `m-${viewer}`,
    type: "message",
    timestamp: 1_700_000_000_000,
    platform: "kick",
    user: { platform_id: `v${viewer}`, username: `viewer${viewer}`, avatar_url: "", color: null, badges: [] },
    channel: { id: String(channel), platform_id: "1", username: "streamer", avatar_url: "" },
    message: "!join",
    fragments: [{ type: "text", text: "!join" }],
    parent: null,
    attributes: { edited: false, accent: null, action: false, highlight: false },
  };
}

describe("giveaway entries with two server nodes on one PostgreSQL database", () => {
  const apps = useNodesOnOneDatabase(2);

  test("entries taken on node A reach node B in order, and B draws among all of them", async () => {
    const [a, b] = apps as [OvationApp, OvationApp];
    const user = a.ovation.repos.users.create({ name: "Streamer" });
    const channel = String(user.id);
    a.ovation.botModules.giveaways.open(channel, { keyword: "!join", announce: false });
    await a.ovation.repos.store.persisted();
    await waitFor(() => b.ovation.botModules.giveaways.get(channel)?.status === "open", 10_000, "node B to see the giveaway");
    for (let i = 0; i < 250; i++) {
      expect((await a.ovation.botModules.giveaways.enter(join(user.id, i))).status).toBe("entered");
      if (i % 50 === 0) await a.ovation.repos.store.persisted();
    }
    await a.ovation.repos.store.persisted();
    await waitFor(() => b.ovation.botModules.giveaways.entryCount(channel) === 250, 10_000, "node B to have every entry");
    expect(b.ovation.botModules.giveaways.get(channel)?.entries).toEqual(a.ovation.botModules.giveaways.get(channel)?.entries);
    // An entrant known through node A cannot enter again through node B.
    expect((await b.ovation.botModules.giveaways.enter(join(user.id, 7))).status).toBe("already_entered");
    b.ovation.botModules.giveaways.close(channel);
    const winners = b.ovation.botModules.giveaways.draw(channel, 100);
    expect(new Set(winners.map((w) => w.user_platform_id)).size).toBe(100);
  }, 60_000);
});
