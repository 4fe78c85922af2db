import { GiveawayModule } from "@ovation/core";
import type { ChatEvent } from "@ovation/core";
import { describe, expect, test } from "vitest";
import { CHUNK_ITEMS } from "../chunked-list.js";
import { createRepositories } from "../repositories.js";
import type { Repositories } from "../repositories.js";
import { Store } from "../store.js";
import { spiedStore, storeImplementations } from "./backends.js";

const implementations = storeImplementations();

/** A giveaway module stored the way the server's bot modules store it. */
function giveaways(repos: Repositories): GiveawayModule {
  return new GiveawayModule({
    onChange: (channel, state) => repos.botState.saveGiveaway(Number(channel), state),
    onEntry: (channel, _state, entry) => repos.botState.appendGiveawayEntry(Number(channel), entry),
  });
}

function entry(channel: number, viewer: number, message = "!join"): ChatEvent {
  return {
    id: `m-${viewer}`,
    type: "message",
    timestamp: 1_700_000_000_000,
    platform: "kick",
    user: { platform_id: `v${viewer}`, username: `viewer${viewer}`, avatar_url: "", color: null, badges: [] },
    channel: { id: String(channel), platform_id: "1", username: "streamer", avatar_url: "" },
    message,
    fragments: [{ type: "text", text: message }],
    parent: null,
    attributes: { edited: false, accent: null, action: false, highlight: false },
  };
}

describe.each(implementations)("giveaway entries on $name", (impl) => {
  test("an entry writes one chunk of at most 100 entries, never the giveaway's other entries or state", async () => {
    const place = await impl.place();
    const { store, batches } = await spiedStore(await impl.backend(place));
    const repos = createRepositories(store);
    const user = repos.users.create({ name: "Streamer" });
    const module = giveaways(repos);
    module.open(String(user.id), { keyword: "!join" });
    for (let i = 0; i < 5 * CHUNK_ITEMS; i++) expect((await module.enter(entry(user.id, i))).status).toBe("entered");
    await store.persisted();
    batches.length = 0;
    expect((await module.enter(entry(user.id, 5 * CHUNK_ITEMS))).status).toBe("entered");
    await store.persisted();
    const written = batches.flatMap((b) => b.documents);
    expect(written.map((d) => d.key)).toEqual([`ext:giveaway_entries.5.${user.id}`]);
    expect(written[0]?.body).toHaveLength(1);
    // Closing and drawing rewrite the giveaway's state, not its entries.
    batches.length = 0;
    module.close(String(user.id));
    module.draw(String(user.id), 2);
    await store.persisted();
    expect(batches.flatMap((b) => b.documents.map((d) => d.key))).toEqual([`ext:bot_state.${user.id}`]);
    expect(JSON.stringify(batches.flatMap((b) => b.documents)).length).toBeLessThan(2_000);
    await store.close();

    // Everything comes back in order after a restart; an entrant cannot enter twice.
    const again = await Store.fromBackend(await impl.backend(place));
    const reposAgain = createRepositories(again);
    const stored = reposAgain.botState.giveaway(user.id);
    expect(stored?.entries.map((e) => e.user_platform_id)).toEqual(Array.from({ length: 5 * CHUNK_ITEMS + 1 }, (_, i) => `v${i}`));
    expect(stored?.winners).toHaveLength(2);
    const restored = giveaways(reposAgain);
    restored.restore(String(user.id), stored);
    expect(restored.get(String(user.id))?.status).toBe("closed");

    // A new giveaway drops the previous one's entries (their chunks are deleted).
    restored.open(String(user.id), { keyword: "!join" });
    expect((await restored.enter(entry(user.id, 0))).status).toBe("entered");
    await again.persisted();
    expect(again.extensionKeys("giveaway_entries.")).toEqual([`giveaway_entries.0.${user.id}`]);
    expect(reposAgain.botState.giveawayEntryCount(user.id)).toBe(1);
    await again.close();
  });

  test("a follow writes one bucket of followers, not the user's other followers; they survive a reopen", async () => {
    const place = await impl.place();
    const { store, batches } = await spiedStore(await impl.backend(place));
    const repos = createRepositories(store);
    const user = repos.users.create({ name: "Followed" });
    for (let i = 0; i < 3_000; i++) repos.botState.addFollower(user.id, "twitch", `f${i}`);
    await store.persisted();
    batches.length = 0;
    repos.botState.addFollower(user.id, "twitch", "newcomer");
    await store.persisted();
    const written = batches.flatMap((b) => b.documents);
    expect(written.map((d) => d.key)).toEqual([expect.stringMatching(new RegExp(`^ext:followers\\.\\d+\\.${user.id}$`))]);
    expect(Object.keys(written[0]?.body as object).length).toBeLessThan(100);
    await store.close();
    const again = await Store.fromBackend(await impl.backend(place));
    const reposAgain = createRepositories(again);
    expect(reposAgain.botState.isFollower(user.id, "twitch", "f2999")).toBe(true);
    expect(reposAgain.botState.isFollower(user.id, "twitch", "newcomer")).toBe(true);
    expect(reposAgain.botState.isFollower(user.id, "twitch", "stranger")).toBe(false);
    expect(reposAgain.botState.isFollower(user.id, "kick", "f1")).toBe(false);
    await again.close();
  });

  test("a giveaway's max_entries caps it: later entries are answered full and not stored", async () => {
    const place = await impl.place();
    const store = await Store.fromBackend(await impl.backend(place));
    const repos = createRepositories(store);
    const user = repos.users.create({ name: "Capped" });
    const module = giveaways(repos);
    module.open(String(user.id), { keyword: "!join", max_entries: 3 });
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push((await module.enter(entry(user.id, i))).status);
    expect(outcomes).toEqual(["entered", "entered", "entered", "full", "full"]);
    await store.persisted();
    expect(repos.botState.giveawayEntryCount(user.id)).toBe(3);
    expect(() => module.open("x", { keyword: "!a", max_entries: 100_001 })).toThrow(/max_entries/);
    await store.close();
  });
});

test("entries and followers stored inside the bot state by earlier versions move out at start", async () => {
  // A data directory of the embedded-files backend, removed after the file like the others.
  const dir = await implementations[0]!.place();
  const store = await Store.open(dir);
  const repos = createRepositories(store);
  const user = repos.users.create({ name: "Old" });
  const entries = Array.from({ length: CHUNK_ITEMS + 5 }, (_, i) => ({ platform: "kick", user_platform_id: `v${i}`, username: `v${i}`, weight: 1, entered_at: i }));
  const giveaway = { id: "g1", settings: { title: "", keyword: "!join", eligibility: "everyone", subscriber_weight: 1, announce: true }, status: "open", opened_at: 0, closed_at: null, entries, winners: [] };
  const followers = { "twitch:1": "2026-01-01T00:00:00.000Z", "kick:2": "2026-01-02T00:00:00.000Z" };
  store.update((data) => void (data.extensions[`bot_state.${user.id}`] = { giveaway, followers }), { extensions: [`bot_state.${user.id}`] });
  await store.close();

  const again = await Store.open(dir);
  const moved = createRepositories(again);
  await again.persisted();
  expect(again.data.extensions[`bot_state.${user.id}`]).toMatchObject({ giveaway: { entries: [] }, followers: {} });
  expect(moved.botState.isFollower(user.id, "twitch", "1")).toBe(true);
  expect(moved.botState.isFollower(user.id, "kick", "2")).toBe(true);
  expect(moved.botState.giveaway(user.id)?.entries).toEqual(entries);
  expect(again.extensionKeys("giveaway_entries.").sort()).toEqual([`giveaway_entries.0.${user.id}`, `giveaway_entries.1.${user.id}`]);
  // The old giveaway (without max_entries) still loads.
  const module = giveaways(moved);
  module.restore(String(user.id), moved.botState.giveaway(user.id));
  expect((await module.enter(entry(user.id, 0))).status).toBe("already_entered");
  expect((await module.enter(entry(user.id, 9_999))).status).toBe("entered");
  await again.close();
});
