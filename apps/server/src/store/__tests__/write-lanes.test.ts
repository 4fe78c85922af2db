import { afterEach, describe, expect, test, vi } from "vitest";
import { tempDataDir } from "../../__tests__/helpers.js";
import type { AlertLogEntry } from "../records.js";
import type { StoreBackend, StoreBatch } from "../backend.js";
import { FileBackend } from "../file-backend.js";
import { ACK_WRITE_INTERVAL_MS, Store, WRITE_INTERVAL_MS, readStoredData } from "../store.js";
import { compactEntry } from "../logged-alert.js";

/** Settles once the event loop has turned a few times (nothing here waits on a clock). */
const turns = async (n = 20) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

/**
 * A store on the embedded files whose document writes can be held (`hold()`) until released, as a
 * 6 MB key-value document of a busy channel is held in PostgreSQL; alert-log writes are never held.
 */
async function storeWithHeldDocuments(): Promise<{ store: Store; dir: string; hold(): void; release(): void; heldWrites(): number; remove(): void }> {
  const dir = tempDataDir();
  const backend = await FileBackend.open(dir.dir);
  let gate: Promise<void> | null = null;
  let open: (() => void) | null = null;
  let held = 0;
  const gated: StoreBackend = {
    description: backend.description,
    load: () => backend.load(),
    write: async (batch: StoreBatch) => {
      if (batch.documents.length > 0 && gate !== null) {
        held++;
        await gate;
      }
      return backend.write(batch);
    },
    replaceAll: (s) => backend.replaceAll(s),
    close: () => backend.close(),
  };
  const store = await Store.fromBackend(gated);
  await store.persisted();
  return {
    store,
    dir: dir.dir,
    hold: () => {
      gate = new Promise<void>((resolve) => (open = resolve));
    },
    release: () => {
      gate = null;
      open?.();
    },
    heldWrites: () => held,
    remove: () => dir.remove(),
  };
}

function entry(userId: number, seq: number): AlertLogEntry {
  return compactEntry({
    seq,
    user_id: userId,
    logged_at: 1_700_000_000_000 + seq,
    test: false,
    acked_by: [],
    cleared: false,
    notification: { subscription: { type: "follow", version: "1", condition: { platform: "kick", platform_id: "1" } }, notification: { id: `n-${seq}`, created_at: "2026-11-27T00:00:00Z" }, event: { name: `viewer${seq}` } },
  });
}

describe("a quiet user's alert is not held behind another user's document write", () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });
  /** A store with held document writes, released, closed and removed after the test. */
  const heldStore = async () => {
    const s = await storeWithHeldDocuments();
    cleanups.push(async () => {
      s.release();
      await s.store.close();
      s.remove();
    });
    return s;
  };

  test("the alert log is durable while another user's document write is held; persisted() still waits for both", async () => {
    const s = await heldStore();
    s.hold();
    s.store.update((data) => (data.extensions["giveaway_entries.0.2"] = [{ username: "viewer1" }]), { extensions: ["giveaway_entries.0.2"] });
    s.store.update((data) => ((data.extensions["giveaway_entries.0.2"] as unknown[]).push({ username: "viewer2" })), { extensions: ["giveaway_entries.0.2"] });
    const everything = s.store.persisted();
    let everythingDone = false;
    void everything.then(() => (everythingDone = true));
    // The document write starts within WRITE_INTERVAL_MS of the last one, and is then held.
    for (let i = 0; i < 400 && s.heldWrites() === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    await turns();
    expect(s.heldWrites()).toBe(1);

    // The quiet user (1) logs two alerts while user 2's document write is held.
    s.store.logAlert(1, { t: "add", e: entry(1, 1) });
    s.store.logAlert(1, { t: "add", e: entry(1, 2) });
    await s.store.alertLogsPersisted();
    expect(everythingDone).toBe(false);
    const stored = readStoredData(s.dir);
    expect(stored.alert_log["1"]?.map((e) => e.seq)).toEqual([1, 2]);
    expect(stored.extensions["giveaway_entries.0.2"]).toBeUndefined();

    s.release();
    await everything;
    await s.store.persisted();
    const after = readStoredData(s.dir);
    expect(after.extensions["giveaway_entries.0.2"]).toEqual([{ username: "viewer1" }, { username: "viewer2" }]);
    expect(after.alert_log["1"]?.map((e) => e.seq)).toEqual([1, 2]);
  });

  test("persisted() asked while only an alert is pending resolves without waiting for a held document write made after it", async () => {
    const s = await heldStore();
    s.hold();
    s.store.logAlert(1, { t: "add", e: entry(1, 1) });
    const alertOnly = s.store.persisted();
    s.store.update((data) => (data.extensions["giveaway_entries.0.2"] = [{ username: "viewer1" }]), { extensions: ["giveaway_entries.0.2"] });
    await alertOnly;
    expect(readStoredData(s.dir).alert_log["1"]?.map((e) => e.seq)).toEqual([1]);
    expect(readStoredData(s.dir).extensions["giveaway_entries.0.2"]).toBeUndefined();
    s.release();
    await s.store.persisted();
    expect(readStoredData(s.dir).extensions["giveaway_entries.0.2"]).toEqual([{ username: "viewer1" }]);
  });
});

describe("acknowledgements that nobody waits for are written at a slower pace", () => {
  /** A store on the embedded files that records when each alert-log write started and what it held. */
  async function recordingStore() {
    const dir = tempDataDir();
    const backend = await FileBackend.open(dir.dir);
    const writes: Array<{ at: number; kinds: string[] }> = [];
    let last: Promise<unknown> = Promise.resolve();
    const recording: StoreBackend = {
      description: backend.description,
      load: () => backend.load(),
      write: (batch: StoreBatch) => {
        if (batch.alertLogs.length > 0) writes.push({ at: Date.now(), kinds: batch.alertLogs.flatMap((l) => l.events.map((e) => e.t)) });
        return (last = backend.write(batch));
      },
      replaceAll: (s) => backend.replaceAll(s),
      close: () => backend.close(),
    };
    const store = await Store.fromBackend(recording);
    store.logAlert(1, { t: "add", e: entry(1, 1) });
    store.logAlert(1, { t: "add", e: entry(1, 2) });
    await store.persisted();
    return { store, dir, writes, written: () => last };
  }

  afterEach(() => {
    vi.useRealTimers();
  });

  test("an acknowledgement alone waits ACK_WRITE_INTERVAL_MS; an alert logged meanwhile, or a caller of alertLogsPersisted(), brings the write back to WRITE_INTERVAL_MS", async () => {
    const { store, dir, writes, written } = await recordingStore();
    try {
      vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout", "setImmediate"] });
      const settle = async (ms: number) => {
        await vi.advanceTimersByTimeAsync(ms);
        await written();
        await vi.advanceTimersByTimeAsync(0);
      };
      // Let the pace after the setup's write run out: what follows starts from a finished lane.
      await settle(ACK_WRITE_INTERVAL_MS);
      const base = writes.length;

      // 1. Acknowledgements alone: no write at the usual pace, one write at the slower one.
      store.logAlert(1, { t: "ack", seq: 1, bs: 7 });
      await settle(0);
      const first = writes.length;
      store.logAlert(1, { t: "ack", seq: 2, bs: 7 });
      await settle(WRITE_INTERVAL_MS * 2);
      expect(writes.length).toBe(first);
      await settle(ACK_WRITE_INTERVAL_MS);
      expect(writes.length).toBe(first + 1);
      expect(writes.at(-1)?.kinds).toEqual(["ack"]);
      expect((writes.at(-1)?.at ?? 0) - (writes.at(-2)?.at ?? 0)).toBeGreaterThanOrEqual(ACK_WRITE_INTERVAL_MS);
      expect(writes.length - base).toBe(2);

      // 2. An alert logged while an acknowledgement waits: both go at the usual pace.
      await settle(ACK_WRITE_INTERVAL_MS);
      store.logAlert(1, { t: "ack", seq: 1, bs: 8 }); // written at once: the lane was quiet
      await settle(0);
      store.logAlert(1, { t: "ack", seq: 2, bs: 8 }); // waits the slower pace
      await settle(WRITE_INTERVAL_MS + 5);
      const beforeAlert = writes.length;
      expect(writes.at(-1)?.kinds).toEqual(["ack"]);
      store.logAlert(1, { t: "add", e: entry(1, 3) });
      await settle(0);
      expect(writes.length).toBe(beforeAlert + 1);
      expect(writes.at(-1)?.kinds).toEqual(["ack", "add"]);
      expect((writes.at(-1)?.at ?? 0) - (writes.at(-2)?.at ?? 0)).toBeLessThan(ACK_WRITE_INTERVAL_MS);

      // 3. A caller waiting for the alert log: the acknowledgement goes at the usual pace, and it resolves.
      await settle(ACK_WRITE_INTERVAL_MS);
      store.logAlert(1, { t: "ack", seq: 3, bs: 8 }); // written at once
      await settle(0);
      store.logAlert(1, { t: "ack", seq: 3, bs: 9 }); // waits the slower pace
      await settle(WRITE_INTERVAL_MS + 5);
      const beforeWaiter = writes.length;
      const durable = store.alertLogsPersisted();
      await settle(0);
      expect(writes.length).toBe(beforeWaiter + 1);
      expect((writes.at(-1)?.at ?? 0) - (writes.at(-2)?.at ?? 0)).toBeLessThan(ACK_WRITE_INTERVAL_MS);
      await durable;
      vi.useRealTimers();
      const stored = readStoredData(dir.dir).alert_log["1"] ?? [];
      expect(stored.map((e) => [e.seq, e.acked_by])).toEqual([
        [1, [7, 8]],
        [2, [7, 8]],
        [3, [8, 9]],
      ]);
    } finally {
      vi.useRealTimers();
      await store.close();
      dir.remove();
    }
  });
});
