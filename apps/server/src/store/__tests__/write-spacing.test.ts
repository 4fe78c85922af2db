import { afterEach, describe, expect, test } from "vitest";
import { tempDataDir } from "../../__tests__/helpers.js";
import type { StoreBackend } from "../backend.js";
import { FileBackend } from "../file-backend.js";
import { Store } from "../store.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A store on the embedded files whose writes take as long as the test says (`delays`, one per
 * write, then none), recording when each write started and ended.
 */
async function timedStore(): Promise<{ store: Store; delays: number[]; starts: number[]; ends: number[]; change(): Promise<void>; remove(): void }> {
  const dir = tempDataDir();
  const backend = await FileBackend.open(dir.dir);
  const delays: number[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const timed: StoreBackend = {
    description: backend.description,
    load: () => backend.load(),
    write: async (batch) => {
      starts.push(Date.now());
      const delay = delays.shift() ?? 0;
      if (delay > 0) await sleep(delay);
      const outcome = await backend.write(batch);
      ends.push(Date.now());
      return outcome;
    },
    replaceAll: (s) => backend.replaceAll(s),
    close: () => backend.close(),
  };
  const store = await Store.fromBackend(timed);
  await store.persisted();
  starts.length = 0;
  ends.length = 0;
  const change = async () => {
    store.update(() => undefined, { meta: true });
    await store.persisted();
  };
  return { store, delays, starts, ends, change, remove: dir.remove };
}

describe("slow writes space the next write", () => {
  const open: Array<{ store: Store; remove(): void }> = [];
  afterEach(async () => {
    for (const { store, remove } of open.splice(0)) {
      await store.close();
      remove();
    }
  });

  test("one write slowed by a stall does not hold the next back three times as long", async () => {
    const s = await timedStore();
    open.push(s);
    s.delays.push(0, 0, 0, 600);
    for (let i = 0; i < 4; i++) await s.change();
    await s.change();
    // Spacing by the last write alone waited 3 x 600 ms from its start: 1,200 ms after its end.
    expect(s.starts[4]! - s.ends[3]!).toBeLessThan(900);
  });

  test("a run of slow writes (a big document rewritten all the time) spaces the next by three times the quickest", async () => {
    const s = await timedStore();
    open.push(s);
    s.delays.push(250, 250, 250);
    for (let i = 0; i < 3; i++) await s.change();
    await s.change();
    // At least 3 x 250 ms between the starts of the last slow write and the next: 500 ms after its end.
    expect(s.starts[3]! - s.starts[2]!).toBeGreaterThanOrEqual(3 * 250 - 5);
  });
});
