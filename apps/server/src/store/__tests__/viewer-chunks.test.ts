import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pino } from "pino";
import { afterEach, describe, expect, test } from "vitest";
import { waitFor } from "../../__tests__/socket-helpers.js";
import { STORE_DIR } from "../file-backend.js";
import { VIEWER_CHUNK_KEYS } from "../viewer-chunks.js";
import { KV_EXTENSION, KV_VIEWERS_EXTENSION, documentBody, replaceDocument } from "../partitions.js";
import { USER_CAPS } from "../user-caps.js";
import { PostgresBackend } from "../postgres-backend.js";
import { createRepositories } from "../repositories.js";
import { Store } from "../store.js";
import { spiedStore, storeImplementations } from "./backends.js";

const implementations = storeImplementations();
const silent = pino({ level: "silent" });
const open: Store[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

const viewer = (i: number) => `kick:v${i}`;
const names = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => viewer(from + i));
const named = (key: string) => ({ name: key.slice(5), platform: "kick" });

describe.each(implementations)("viewer tables in chunks on $name", (impl) => {
  test("a tick naming new viewers writes the last chunk only; a balance change writes its own chunk; all survives a reopen", async () => {
    const place = await impl.place();
    const { store, batches } = await spiedStore(await impl.backend(place));
    open.push(store);
    const { kv } = createRepositories(store);
    const total = 2 * VIEWER_CHUNK_KEYS + 500;
    await kv.updateMany("5", "points_viewers", names(0, total), named);
    await kv.updateMany("5", "points", names(0, total), () => 10);
    await kv.update("5", "points_config", "settings", () => ({ currency: "cookies" }));
    await store.persisted();
    expect(new Set(batches.flatMap((b) => b.documents.map((d) => d.key)))).toEqual(
      new Set(["meta", "kv:5", ...[0, 1, 2].flatMap((n) => [`kvv:5/points/${n}`, `kvv:5/points_viewers/${n}`])]),
    );

    // 600 new chatters named at once (a points tick): the last chunk fills to 1,000, then a new one.
    batches.length = 0;
    await kv.updateMany("5", "points_viewers", names(total, total + 600), named);
    await store.persisted();
    const written = batches.flatMap((b) => b.documents);
    expect(written.map((d) => d.key).sort()).toEqual(["kvv:5/points_viewers/2", "kvv:5/points_viewers/3"]);
    expect(Object.keys(written.find((d) => d.key.endsWith("/3"))?.body as object)).toHaveLength(100);

    // A known viewer's balance changes in the chunk that holds it; nothing else is written.
    batches.length = 0;
    expect(await kv.update("5", "points", viewer(5), (current) => (current as number) + 5)).toBe(15);
    await store.persisted();
    expect(batches.flatMap((b) => b.documents.map((d) => d.key))).toEqual(["kvv:5/points/0"]);

    // Reads join the chunks.
    expect(await kv.field("5", "points_viewers", viewer(total + 599))).toEqual(named(viewer(total + 599)));
    const balances = await kv.table("5", "points");
    expect(Object.keys(balances)).toHaveLength(total);
    expect(balances[viewer(5)]).toBe(15);
    expect(kv.channelTables("5")["points_config"]).toEqual({ settings: { currency: "cookies" } });
    expect(Object.keys(kv.channelTables("5")["points_viewers"] ?? {})).toHaveLength(total + 600);
    await store.close();

    const again = await Store.fromBackend(await impl.backend(place));
    open.push(again);
    const reopened = createRepositories(again).kv;
    expect(await reopened.table("5", "points_viewers")).toEqual(await kv.table("5", "points_viewers"));
    expect(await reopened.field("5", "points", viewer(5))).toBe(15);
  });

  test("emptying a chunk deletes its document; a removed key is gone after a reopen", async () => {
    const place = await impl.place();
    const { store, batches } = await spiedStore(await impl.backend(place));
    open.push(store);
    const { kv } = createRepositories(store);
    await kv.updateMany("9", "points", names(0, VIEWER_CHUNK_KEYS + 3), () => 1);
    await store.persisted();
    batches.length = 0;
    await kv.updateMany("9", "points", names(VIEWER_CHUNK_KEYS, VIEWER_CHUNK_KEYS + 3), () => undefined);
    await kv.update("9", "points", viewer(0), () => undefined);
    await store.persisted();
    expect(batches.flatMap((b) => b.documents.map((d) => [d.key, d.body === null]))).toEqual([
      ["kvv:9/points/1", true],
      ["kvv:9/points/0", false],
    ]);
    if (impl.name === "embedded files") expect(readdirSync(join(place, STORE_DIR, "kvv"))).toHaveLength(1);
    // A new key after the last chunk was deleted: one chunk again, written alone.
    batches.length = 0;
    await kv.update("9", "points", "kick:late", () => 3);
    await store.persisted();
    expect(batches.flatMap((b) => b.documents.map((d) => d.key))).toEqual(["kvv:9/points/1"]);
    await kv.update("9", "points", "kick:late", () => undefined);
    await store.close();
    const again = await Store.fromBackend(await impl.backend(place));
    open.push(again);
    const table = await createRepositories(again).kv.table("9", "points");
    expect(Object.keys(table)).toHaveLength(VIEWER_CHUNK_KEYS - 1);
    expect(table[viewer(0)]).toBeUndefined();
  });

  test("viewer tables an earlier version kept in the channel's document move into chunks at open, losing nothing", async () => {
    const place = await impl.place();
    const old = await Store.fromBackend(await impl.backend(place));
    const balances = Object.fromEntries(names(0, 1_500).map((key, i) => [key, i]));
    // The layout before chunks: the viewer tables inside `kv:<channel>`, beside the ordinary tables.
    old.update((data) => {
      data.extensions[KV_EXTENSION] = { "3": { points: balances, points_viewers: { [viewer(1)]: named(viewer(1)) }, counters: { deaths: 4 } } };
    }, { kv: ["3"] });
    await old.close();

    const store = await Store.fromBackend(await impl.backend(place));
    open.push(store);
    const { kv } = createRepositories(store);
    expect(await kv.table("3", "points")).toEqual(balances);
    expect(await kv.field("3", "points_viewers", viewer(1))).toEqual(named(viewer(1)));
    expect(store.data.extensions[KV_EXTENSION]).toEqual({ "3": { counters: { deaths: 4 } } });
    await store.persisted();
    await store.close();
    if (impl.name === "embedded files") {
      expect(readdirSync(join(place, STORE_DIR, "kvv"))).toHaveLength(3);
      expect(existsSync(join(place, STORE_DIR, "kv", `${Buffer.from("3").toString("base64url")}.json`))).toBe(true);
    }
    // What was stored is the new layout: a reopen moves nothing and reads the same.
    const again = await Store.fromBackend(await impl.backend(place));
    open.push(again);
    expect((again.data.extensions[KV_VIEWERS_EXTENSION] as Record<string, Record<string, object>>)["3"]?.["points"]).toEqual({
      "0": Object.fromEntries(Object.entries(balances).slice(0, VIEWER_CHUNK_KEYS)),
      "1": Object.fromEntries(Object.entries(balances).slice(VIEWER_CHUNK_KEYS)),
    });
    expect(again.data.extensions[KV_EXTENSION]).toEqual({ "3": { counters: { deaths: 4 } } });
    expect(await createRepositories(again).kv.table("3", "points")).toEqual(balances);
  });
});

describe("viewer chunks and the caps", () => {
  test("two key-value stores over one store see each other's new viewers (one index per store)", async () => {
    const store = await Store.fromBackend(await implementations[0]!.backend(await implementations[0]!.place()));
    open.push(store);
    const first = createRepositories(store).kv;
    const second = createRepositories(store).kv;
    await first.update("1", "points", viewer(1), () => 1);
    await second.update("1", "points", viewer(2), () => 2);
    await first.update("1", "points", viewer(2), (n) => (n as number) + 1);
    await second.update("1", "points", viewer(1), (n) => (n as number) + 1);
    expect(await first.table("1", "points")).toEqual({ [viewer(1)]: 2, [viewer(2)]: 3 });
    const chunks = (store.data.extensions[KV_VIEWERS_EXTENSION] as Record<string, Record<string, Record<string, object>>>)["1"]!["points"]!;
    expect(Object.keys(chunks)).toEqual(["0"]);
  });

  test("a viewer table holds at most pointsViewers keys over all of its chunks; a refused batch changes nothing", async () => {
    const store = await Store.fromBackend(await implementations[0]!.backend(await implementations[0]!.place()));
    open.push(store);
    const { kv } = createRepositories(store);
    await kv.updateMany("8", "points", names(0, USER_CAPS.pointsViewers - 1), () => 1);
    await expect(kv.updateMany("8", "points", names(USER_CAPS.pointsViewers - 1, USER_CAPS.pointsViewers + 1), () => 1)).rejects.toThrow(/pointsViewers/);
    expect(await kv.field("8", "points", viewer(USER_CAPS.pointsViewers - 1))).toBeUndefined();
    // Changing known keys is never refused; the last free place is taken, then the next is refused.
    await kv.update("8", "points", viewer(0), () => 2);
    await kv.update("8", "points", viewer(USER_CAPS.pointsViewers - 1), () => 1);
    await expect(kv.update("8", "points", viewer(USER_CAPS.pointsViewers), () => 1)).rejects.toThrow(/at most 200000 viewers in table points \(pointsViewers\)/);
    // Removing one makes room again (the chunk's count follows its deletions).
    await kv.update("8", "points", viewer(7), () => undefined);
    await kv.update("8", "points", viewer(USER_CAPS.pointsViewers), () => 1);
    expect(Object.keys(await kv.table("8", "points"))).toHaveLength(USER_CAPS.pointsViewers);
  }, 60_000);

  test("a viewer table counts as a table against kvTables", async () => {
    const store = await Store.fromBackend(await implementations[0]!.backend(await implementations[0]!.place()));
    open.push(store);
    const { kv } = createRepositories(store);
    for (let t = 0; t < USER_CAPS.kvTables - 1; t++) await kv.update("2", `t${t}`, "k", () => 1);
    await kv.update("2", "points", viewer(1), () => 1);
    await expect(kv.update("2", "points_viewers", viewer(1), () => named(viewer(1)))).rejects.toThrow(/kvTables/);
    await expect(kv.update("2", "one-more", "k", () => 1)).rejects.toThrow(/kvTables/);
  });
});

describe("viewer chunks on two nodes (PostgreSQL)", () => {
  async function node(url: string) {
    const store = await Store.fromBackend(await PostgresBackend.open(url, { logger: silent }), { logger: silent });
    open.push(store);
    return { store, kv: createRepositories(store).kv };
  }

  test("new viewers named on both nodes at once land in the same last chunk and both survive; balances added on both add up", async () => {
    const place = await implementations[1]!.place();
    const [a, b] = [await node(place), await node(place)];
    await a.kv.updateMany("4", "points", names(0, 10), () => 1);
    await a.store.persisted();
    await waitFor(async () => (await b.kv.field("4", "points", viewer(9))) === 1, 10_000, "node B to see the first chunk");
    await Promise.all([
      a.kv.updateMany("4", "points", names(10, 20), () => 2),
      b.kv.updateMany("4", "points", names(20, 30), () => 3),
      a.kv.update("4", "points", viewer(0), (n) => (n as number) + 5),
      b.kv.update("4", "points", viewer(0), (n) => (n as number) + 7),
    ]);
    await Promise.all([a.store.persisted(), b.store.persisted()]);
    const expected = { ...Object.fromEntries(names(0, 10).map((k) => [k, 1])), ...Object.fromEntries(names(10, 20).map((k) => [k, 2])), ...Object.fromEntries(names(20, 30).map((k) => [k, 3])), [viewer(0)]: 13 };
    const settled = async (n: { kv: typeof a.kv }) => JSON.stringify(Object.entries(await n.kv.table("4", "points")).sort()) === JSON.stringify(Object.entries(expected).sort());
    await waitFor(async () => (await settled(a)) && (await settled(b)), 15_000, "both nodes to hold every viewer and both increments");
    const c = await node(place);
    expect(await c.kv.table("4", "points")).toEqual(expected);
  });

  test("a key two nodes placed in different chunks reads as one (numbers add up) and is folded into one chunk at its next change", async () => {
    const place = await implementations[1]!.place();
    const { store, kv } = await node(place);
    await kv.updateMany("6", "points", names(0, VIEWER_CHUNK_KEYS), () => 1);
    // As after a race: node A put the new key in chunk 0 (with room), node B in a new chunk 1; both
    // documents arrive as another node's changes do (`replaceDocument`).
    store.update((data) => {
      replaceDocument(data, "kvv:6/points/0", { ...(documentBody(data, "kvv:6/points/0") as object), [viewer(0)]: 4 });
      replaceDocument(data, "kvv:6/points/1", { [viewer(0)]: 6 });
    });
    expect(await kv.field("6", "points", viewer(0))).toBe(10);
    expect((await kv.table("6", "points"))[viewer(0)]).toBe(10);
    expect(await kv.update("6", "points", viewer(0), (n) => (n as number) + 1)).toBe(11);
    const chunks = (store.data.extensions[KV_VIEWERS_EXTENSION] as Record<string, Record<string, Record<string, unknown>>>)["6"]!["points"]!;
    expect(Object.keys(chunks)).toEqual(["0"]);
    expect((chunks["0"] as Record<string, unknown>)[viewer(0)]).toBe(11);
  });
});
