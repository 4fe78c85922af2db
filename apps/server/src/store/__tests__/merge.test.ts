import { describe, expect, test } from "vitest";
import { IdBlocks } from "../id-blocks.js";
import { mergeDocument } from "../merge.js";

describe("three-way merge of a document two nodes changed", () => {
  const base = { user: { id: 1, name: "A", avatar: null }, commands: [{ id: 1, user_id: 1, response: "x" }], connections: [] };

  test("records and fields changed on one side each are all kept", () => {
    const local = { ...base, commands: [...base.commands, { id: 2, user_id: 1, response: "mine" }] };
    const remote = { ...base, user: { ...base.user, name: "B" }, commands: [{ id: 1, user_id: 1, response: "edited" }, { id: 7, user_id: 1, response: "theirs" }] };
    const { body, conflicts } = mergeDocument("user:1", base, local, remote);
    expect(body).toEqual({ user: { id: 1, name: "B", avatar: null }, commands: [{ id: 1, user_id: 1, response: "edited" }, { id: 2, user_id: 1, response: "mine" }, { id: 7, user_id: 1, response: "theirs" }], connections: [] });
    expect(conflicts).toEqual([]);
  });

  test("a field both changed keeps this node's value and is reported; a deletion wins over a change", () => {
    const local = { ...base, user: { ...base.user, name: "Mine" }, commands: [] };
    const remote = { ...base, user: { ...base.user, name: "Theirs" }, commands: [{ id: 1, user_id: 1, response: "edited" }] };
    const { body, conflicts } = mergeDocument("user:1", base, local, remote);
    expect(body).toMatchObject({ user: { name: "Mine" }, commands: [] });
    expect(conflicts).toEqual(["user:1.user.name", "user:1.commands[id=1]"]);
    // The whole document deleted on the other node while changed here: deleted.
    expect(mergeDocument("user:1", base, local, null).body).toBeNull();
  });

  test("numbers both changed add up in key-value documents, take the larger in meta, and lists of records without ids merge by their key", () => {
    const kvBase = { counters: { deaths: 3 }, points: {} };
    const kv = mergeDocument("kv:1", kvBase, { counters: { deaths: 5 }, points: { ann: 1 } }, { counters: { deaths: 4 }, points: { bob: 2 } });
    expect(kv.body).toEqual({ counters: { deaths: 6 }, points: { bob: 2, ann: 1 } });
    // A key both created: both increments count.
    expect(mergeDocument("kv:1", {}, { counters: { wins: 1 } }, { counters: { wins: 1 } }).body).toEqual({ counters: { wins: 2 } });
    expect(mergeDocument("meta", { sequences: { users: 3 } }, { sequences: { users: 5 } }, { sequences: { users: 9 } }).body).toEqual({ sequences: { users: 9 } });
    const sessions = (...ids: string[]) => ids.map((id) => ({ id_hash: id, user_id: 1 }));
    expect(mergeDocument("ext:identity.sessions", sessions("a", "b"), sessions("a", "b", "mine"), sessions("b", "theirs")).body).toEqual(sessions("b", "theirs", "mine"));
  });
});

describe("id blocks", () => {
  test("hand out ids from reserved blocks above the floor, reserve the next block ahead, never repeat", async () => {
    let last = 0;
    const reserved: Array<[number, number]> = [];
    const blocks = new IdBlocks(async (_name, size, floor) => {
      last = Math.max(last, floor) + size;
      reserved.push([last - size + 1, last]);
      return { last };
    }, undefined, 100);
    await blocks.prepare({ users: 10 });
    const ids: number[] = [];
    for (let i = 0; i < 400; i++) {
      ids.push(blocks.next("users"));
      if (i % 40 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(ids[0]).toBe(11);
    expect(new Set(ids).size).toBe(400);
    expect(ids.every((id, i) => i === 0 || id > (ids[i - 1] as number))).toBe(true);
    expect(reserved.length).toBeGreaterThan(1);
  });

  test("a sequence with no reserved id left throws a 503 (and reserves one for the next call)", async () => {
    const blocks = new IdBlocks(async (_name, size) => ({ last: size }), undefined);
    expect(() => blocks.next("commands")).toThrow(expect.objectContaining({ code: "OVATION_ERR_STORE_IDS_UNAVAILABLE", status: 503, message: expect.stringMatching(/No commands id is reserved yet/) }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(blocks.next("commands")).toBe(1);
  });

  test("a burst of creations while the database is slow to answer is served from the first block", async () => {
    // The refill asked for at half a block is answered only after the burst: 600 creations in a row
    // (a node's first sign-ups while PostgreSQL is busy) must not run out. With 100-id first blocks
    // the 101st creation failed.
    let answer: (() => void) | undefined;
    let calls = 0;
    const blocks = new IdBlocks((_name, size, floor) => {
      calls++;
      const last = floor + calls * size;
      return calls === 1 ? Promise.resolve({ last }) : new Promise((resolve) => (answer = () => resolve({ last })));
    }, undefined);
    await blocks.prepare({ users: 0 });
    const ids = Array.from({ length: 600 }, () => blocks.next("users"));
    expect(ids[0]).toBe(1);
    expect(ids.at(-1)).toBe(600);
    expect(calls).toBe(2); // the refill was asked for, and not answered yet
    answer?.();
  });
});
