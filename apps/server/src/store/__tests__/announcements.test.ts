import { describe, expect, test } from "vitest";
import type { DocumentKey } from "../partitions.js";
import { announcements } from "../postgres-listener.js";

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
});
