import { describe, expect, it } from "vitest";
import { AlertQueue } from "../alert-queue.js";
import type { AlertOutcome, QueueSnapshot } from "../alert-queue.js";

interface Item {
  id: string;
}

/** A queue whose plays finish only when the test says so. */
function harness(options: { maxPending?: number; maxPlayMs?: number } = {}) {
  const started: string[] = [];
  const settled: [string, AlertOutcome][] = [];
  const snapshots: QueueSnapshot[] = [];
  const finishers = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();
  const signals = new Map<string, AbortSignal>();
  const timers: { callback: () => void; ms: number; cleared: boolean }[] = [];
  const queue = new AlertQueue<Item>({
    play(item, signal) {
      started.push(item.id);
      signals.set(item.id, signal);
      return new Promise<void>((resolve, reject) => finishers.set(item.id, { resolve, reject }));
    },
    onSettled: (item, outcome) => settled.push([item.id, outcome]),
    onChange: (snapshot) => snapshots.push(snapshot),
    setTimer(callback, ms) {
      const timer = { callback, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimer(handle) {
      (handle as { cleared: boolean }).cleared = true;
    },
    ...options,
  });
  const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
  return { queue, started, settled, snapshots, finishers, signals, timers, flush };
}

describe("AlertQueue", () => {
  it("plays alerts one at a time in arrival order", async () => {
    const h = harness();
    h.queue.enqueue({ id: "a" });
    h.queue.enqueue({ id: "b" });
    h.queue.enqueue({ id: "c" });
    expect(h.started).toEqual(["a"]);
    expect(h.queue.snapshot()).toEqual({ state: "playing", pending: 2, current: "a" });
    h.finishers.get("a")?.resolve();
    await h.flush();
    expect(h.started).toEqual(["a", "b"]);
    h.finishers.get("b")?.resolve();
    await h.flush();
    h.finishers.get("c")?.resolve();
    await h.flush();
    expect(h.settled).toEqual([["a", "shown"], ["b", "shown"], ["c", "shown"]]);
    expect(h.queue.snapshot()).toEqual({ state: "idle", pending: 0, current: null });
  });

  it("ignores an alert whose id is already queued or playing", () => {
    const h = harness();
    expect(h.queue.enqueue({ id: "a" })).toBe(true);
    expect(h.queue.enqueue({ id: "b" })).toBe(true);
    expect(h.queue.enqueue({ id: "a" })).toBe(false);
    expect(h.queue.enqueue({ id: "b" })).toBe(false);
    expect(h.queue.snapshot().pending).toBe(1);
  });

  it("moves on when a play rejects, and reports it as failed", async () => {
    const h = harness();
    h.queue.enqueue({ id: "a" });
    h.queue.enqueue({ id: "b" });
    h.finishers.get("a")?.reject(new Error("image exploded"));
    await h.flush();
    expect(h.settled).toEqual([["a", "failed"]]);
    expect(h.started).toEqual(["a", "b"]);
  });

  it("aborts a play that overruns maxPlayMs and starts the next one", async () => {
    const h = harness({ maxPlayMs: 5000 });
    h.queue.enqueue({ id: "stuck" });
    h.queue.enqueue({ id: "next" });
    const watchdog = h.timers[0];
    expect(watchdog?.ms).toBe(5000);
    watchdog?.callback();
    expect(h.signals.get("stuck")?.aborted).toBe(true);
    expect(h.settled).toEqual([["stuck", "failed"]]);
    expect(h.started).toEqual(["stuck", "next"]);
    // A late resolution of the stuck play changes nothing.
    h.finishers.get("stuck")?.resolve();
    await h.flush();
    expect(h.settled).toEqual([["stuck", "failed"]]);
  });

  it("skip aborts the current alert and plays the next", () => {
    const h = harness();
    h.queue.enqueue({ id: "a" });
    h.queue.enqueue({ id: "b" });
    expect(h.queue.skip()).toBe(true);
    expect(h.signals.get("a")?.aborted).toBe(true);
    expect(h.settled).toEqual([["a", "skipped"]]);
    expect(h.queue.snapshot().current).toBe("b");
    expect(h.timers[0]?.cleared).toBe(true);
  });

  it("skip with nothing playing returns false", () => {
    expect(harness().queue.skip()).toBe(false);
  });

  it("pause lets the current alert finish and holds the rest until resume", async () => {
    const h = harness();
    h.queue.enqueue({ id: "a" });
    h.queue.enqueue({ id: "b" });
    h.queue.pause();
    expect(h.queue.snapshot()).toEqual({ state: "paused", pending: 1, current: "a" });
    h.finishers.get("a")?.resolve();
    await h.flush();
    expect(h.started).toEqual(["a"]);
    h.queue.enqueue({ id: "c" });
    expect(h.started).toEqual(["a"]);
    expect(h.queue.snapshot()).toEqual({ state: "paused", pending: 2, current: null });
    h.queue.resume();
    expect(h.started).toEqual(["a", "b"]);
  });

  it("clear drops waiting alerts and ends the current one", () => {
    const h = harness();
    h.queue.enqueue({ id: "a" });
    h.queue.enqueue({ id: "b" });
    h.queue.enqueue({ id: "c" });
    h.queue.clear();
    expect(h.settled).toEqual([["b", "dropped"], ["c", "dropped"], ["a", "dropped"]]);
    expect(h.queue.snapshot()).toEqual({ state: "idle", pending: 0, current: null });
    h.queue.enqueue({ id: "d" });
    expect(h.started).toEqual(["a", "d"]);
  });

  it("settles alerts beyond maxPending as overflow", () => {
    const h = harness({ maxPending: 2 });
    for (const id of ["a", "b", "c", "d"]) h.queue.enqueue({ id });
    expect(h.settled).toEqual([["d", "overflow"]]);
    expect(h.queue.snapshot()).toEqual({ state: "playing", pending: 2, current: "a" });
  });

  it("reports every change through onChange", () => {
    const h = harness();
    h.queue.enqueue({ id: "a" });
    h.queue.pause();
    expect(h.snapshots.at(-1)).toEqual({ state: "paused", pending: 0, current: "a" });
  });
});
