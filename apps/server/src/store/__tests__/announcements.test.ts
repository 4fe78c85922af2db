import { describe, expect, test } from "vitest";
import type { DocumentKey } from "../partitions.js";
import { announcements, parse } from "../postgres-listener.js";

describe("commit announcements (NOTIFY payloads)", () => {
  test("a large commit is cut into payloads PostgreSQL accepts (under 8000 bytes), losing no item", () => {
    const documents = Array.from({ length: 600 }, (_, i) => ({ key: `kv:channel-with-a-long-name-${i}` as DocumentKey, version: i + 1 }));
    const added = Array.from({ length: 400 }, (_, i) => ({ userId: i % 7, seq: 1_000_000 + i }));
    const payloads = announcements("node-a", { documents, added, acks: [{ userId: 1, seq: 5, bs: 2 }], clears: [{ userId: 1, upTo: 9 }] });
    expect(payloads.length).toBeGreaterThan(3);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThan(8000);
    const parsed = payloads.map((p) => JSON.parse(p) as { n: string; d?: unknown[]; a?: unknown[]; k?: unknown[]; c?: unknown[] });
    expect(parsed.every((p) => p.n === "node-a")).toBe(true);
    expect(parsed.flatMap((p) => p.d ?? [])).toEqual(documents.map((d) => [d.key, d.version]));
    expect(parsed.flatMap((p) => p.a ?? [])).toEqual(added.map((a) => [a.userId, a.seq]));
    expect(parsed.flatMap((p) => p.k ?? [])).toEqual([[1, 5, 2]]);
    expect(parsed.flatMap((p) => p.c ?? [])).toEqual([[1, 9]]);
    expect(announcements("node-a", { documents: [], added: [], acks: [], clears: [] })).toEqual([]);
  });

  test("an added entry's text travels with its number, in the same payload; one too big for a payload is left to be read back", () => {
    const text = (seq: number, name: string) => JSON.stringify({ seq, user_id: 3, logged_at: 1, test: false, acked_by: [], cleared: false, notification: { notification: { id: `n-${seq}` }, event: { name } } });
    const added = [
      ...Array.from({ length: 40 }, (_, i) => ({ userId: 3, seq: i + 1, entry: text(i + 1, `viewer "${i}" \\ é 😀`.repeat(8)) })),
      { userId: 3, seq: 41, entry: text(41, "x".repeat(7_000)) }, // longer than a payload: its number only
      { userId: 3, seq: 42, entry: text(42, "é".repeat(3_450)) }, // under the length limit, over the bytes: its number only
      { userId: 3, seq: 43 }, // announced without a text (as before)
    ];
    const payloads = announcements("node-a", { documents: [], added, acks: [], clears: [] });
    expect(payloads.length).toBeGreaterThan(1);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThan(8000);
    const read = payloads.map((p) => parse(p, "node-b"));
    // Every number once, in order; each text in the payload of its number.
    expect(read.flatMap((c) => c?.added.map((a) => a.seq) ?? [])).toEqual(added.map((a) => a.seq));
    const carried = new Map(read.flatMap((c) => c?.added.filter((a) => a.entry !== undefined).map((a) => [a.seq, a.entry]) ?? []));
    expect([...carried.keys()]).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    for (const [seq, entry] of carried) expect(entry).toBe((added[seq - 1] as { entry?: string } | undefined)?.entry);
    // This node's own announcements are not read; a payload of an earlier version (numbers only) still is.
    expect(parse(payloads[0], "node-a")).toBeNull();
    // Known by the name written first, whole: a node whose name extends this one's is another node,
    // and a name that needs escaping is matched as JSON writes it.
    expect(parse(payloads[0], "node-")?.added.length).toBeGreaterThan(0);
    const named = (n: string) => announcements(n, { documents: [], added: [{ userId: 1, seq: 2 }], acks: [], clears: [] })[0];
    expect(parse(named("node-ab"), "node-a")?.added).toEqual([{ userId: 1, seq: 2 }]);
    expect(parse(named('node "a"\\'), 'node "a"\\')).toBeNull();
    expect(parse(named('node "a"\\'), "node")?.added).toEqual([{ userId: 1, seq: 2 }]);
    expect(parse(JSON.stringify({ n: "node-a" }), "node-a")).toBeNull();
    expect(parse(JSON.stringify({ n: "node-old", a: [[3, 7]] }), "node-b")?.added).toEqual([{ userId: 3, seq: 7 }]);
  });
});
