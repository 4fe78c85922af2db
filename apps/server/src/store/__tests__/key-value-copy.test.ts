import { afterEach, describe, expect, test } from "vitest";
import { tempDataDir } from "../../__tests__/helpers.js";
import { StoreKeyValueStore, copyValue } from "../key-value.js";
import { Store, readStoredData } from "../store.js";

describe("copyValue (the key-value store's copy of what it stores and hands out)", () => {
  test("copies plain data deeply: changing the copy leaves the original as it was", () => {
    const original = { name: "viewer1", platform: "kick", tags: ["a", { deep: [1, 2] }], none: null, n: 0, flag: false };
    const copy = copyValue(original);
    expect(copy).toEqual(original);
    copy.tags.push("b");
    (copy.tags[1] as { deep: number[] }).deep.push(3);
    copy.name = "changed";
    expect(original).toEqual({ name: "viewer1", platform: "kick", tags: ["a", { deep: [1, 2] }], none: null, n: 0, flag: false });
  });

  test("an own __proto__ field (JSON.parse makes one from hostile input) stays a field and sets no prototype", () => {
    const hostile = JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}') as Record<string, unknown>;
    const copy = copyValue(hostile);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, "__proto__")).toBe(true);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":true},"ok":1}');
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  test("what is not plain data is copied as structuredClone copies it, or refused as structuredClone refuses it", () => {
    const at = new Date(1_700_000_000_000);
    const copy = copyValue({ at, map: new Map([["k", 1]]) });
    expect(copy.at).toBeInstanceOf(Date);
    expect(copy.at).not.toBe(at);
    expect(copy.at.getTime()).toBe(at.getTime());
    expect(copy.map.get("k")).toBe(1);
    expect(() => copyValue({ run: () => 1 })).toThrow();
    // Nesting deeper than the field-by-field copy goes is handed to structuredClone (cycles too).
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic["self"] = cyclic;
    expect(() => copyValue(cyclic)).not.toThrow();
  });
});

describe("the key-value store keeps its own copies", () => {
  const dirs: Array<{ remove(): void }> = [];
  const stores: Store[] = [];
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
    dirs.splice(0).forEach((d) => d.remove());
  });

  test("values given to update and updateMany, and values read back, are copies; the batch is stored", async () => {
    const dir = tempDataDir();
    dirs.push(dir);
    const store = await Store.open(dir.dir);
    stores.push(store);
    const kv = new StoreKeyValueStore(store);
    const given = { name: "viewer1", platform: "kick" };
    const returned = (await kv.update("7", "points_viewers", "kick:1", () => given)) as { name: string };
    given.name = "changed by the caller";
    returned.name = "changed through the result";
    const names = new Map([["kick:2", { name: "viewer2", platform: "kick" }], ["kick:3", { name: "viewer3", platform: "kick" }]]);
    await kv.updateMany("7", "points_viewers", [...names.keys()], (key) => names.get(key));
    (names.get("kick:2") as { name: string }).name = "changed after the batch";
    const read = (await kv.field("7", "points_viewers", "kick:2")) as { name: string };
    read.name = "changed through a read";
    const table = await kv.table("7", "points_viewers");
    (table["kick:3"] as { name: string }).name = "changed through the table";
    const expected = { "kick:1": { name: "viewer1", platform: "kick" }, "kick:2": { name: "viewer2", platform: "kick" }, "kick:3": { name: "viewer3", platform: "kick" } };
    expect(await kv.table("7", "points_viewers")).toEqual(expected);
    await store.persisted();
    // The viewer tables are stored in chunks (`kv_viewers[channel][table][chunk]`): three keys fit the first.
    expect((readStoredData(dir.dir).extensions["kv_viewers"] as Record<string, Record<string, unknown>>)["7"]?.["points_viewers"]).toEqual({ "0": expected });
  });
});
