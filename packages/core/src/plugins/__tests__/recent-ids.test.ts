import { describe, expect, it } from "vitest";
import { RecentIds } from "../recent-ids.js";

describe("RecentIds", () => {
  it("answers new once per id and forgets the oldest beyond capacity", () => {
    const ids = new RecentIds(3);
    expect(["a", "b", "a", "c", "d"].map((id) => ids.add(id))).toEqual([true, true, false, true, true]);
    expect(ids.size).toBe(3);
    expect(ids.has("a")).toBe(false);
    expect(ids.has("d")).toBe(true);
    expect(ids.add("a")).toBe(true);
  });
});
