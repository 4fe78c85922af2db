import type { BrowserSourceBootstrap } from "../../bootstrap.js";
import { platformIcon } from "../overlays/icons.js";
import { runOverlay } from "../overlays/overlay-runner.js";
import type { PageStatus } from "../page-state.js";

/** One waiting viewer as the page draws it. */
interface QueueRow {
  position: number;
  platform: string;
  username: string;
  note: string;
  subscriber: boolean;
}

/** The queue as the page draws it (read from `module_state` and `queue.updated`). */
export interface QueueDrawing {
  open: boolean;
  count: number;
  entries: QueueRow[];
  /** The latest pick, or null. */
  current: QueueRow | null;
}

/** How many waiting viewers the source lists. */
const SHOWN = 10;

function readRow(raw: unknown, position: number): QueueRow | null {
  if (raw === null || typeof raw !== "object") return null;
  const r = raw as Record<string, unknown>;
  if (typeof r.username !== "string" || typeof r.platform !== "string") return null;
  return {
    position: typeof r.position === "number" ? r.position : position,
    platform: r.platform,
    username: r.username,
    note: typeof r.note === "string" ? r.note : "",
    subscriber: r.subscriber === true,
  };
}

/** Reads a queue view; null when it is not one. */
export function readQueue(payload: unknown): QueueDrawing | null {
  if (payload === null || typeof payload !== "object") return null;
  const p = payload as Record<string, unknown>;
  if (typeof p.open !== "boolean" || !Array.isArray(p.entries)) return null;
  const entries = p.entries.flatMap((raw, i) => readRow(raw, i + 1) ?? []);
  const picked = Array.isArray(p.picked) ? readRow(p.picked[0], 0) : null;
  return { open: p.open, count: typeof p.count === "number" ? p.count : entries.length, entries, current: picked };
}

function row(doc: Document, entry: QueueRow, className: string, label: string): HTMLElement {
  const line = doc.createElement("div");
  line.className = className;
  const place = doc.createElement("span");
  place.className = "ovation-queue-place";
  place.textContent = label;
  const name = doc.createElement("span");
  name.className = "ovation-queue-name";
  name.textContent = entry.username;
  line.append(place, platformIcon(doc, entry.platform), name);
  if (entry.subscriber) line.dataset.subscriber = "true";
  if (entry.note !== "") {
    const note = doc.createElement("span");
    note.className = "ovation-queue-note";
    note.textContent = entry.note;
    line.append(note);
  }
  return line;
}

/** Draws the queue: a header (open or closed, how many wait), the current pick, the first waiting viewers. */
export function drawQueue(stage: HTMLElement, queue: QueueDrawing): void {
  const doc = stage.ownerDocument;
  const box = doc.createElement("div");
  box.className = "ovation-queue";
  box.dataset.open = String(queue.open);
  const head = doc.createElement("div");
  head.className = "ovation-queue-head";
  head.textContent = queue.open ? `Queue · ${queue.count} waiting · !join` : `Queue closed · ${queue.count} waiting`;
  box.append(head);
  if (queue.current) box.append(row(doc, queue.current, "ovation-queue-current", "Now"));
  for (const entry of queue.entries.slice(0, SHOWN)) box.append(row(doc, entry, "ovation-queue-entry", `${entry.position}.`));
  if (queue.entries.length > SHOWN) {
    const more = doc.createElement("div");
    more.className = "ovation-queue-more";
    more.textContent = `+ ${queue.entries.length - SHOWN} more`;
    box.append(more);
  }
  stage.replaceChildren(box);
}

/** The `queue` page: the viewer queue from the config at start, redrawn on every `queue.updated`. */
export async function runQueuePage(bootstrap: BrowserSourceBootstrap, stage: HTMLElement, status: PageStatus): Promise<void> {
  await runOverlay(bootstrap, status, {
    rooms: () => [],
    start: (config, socket) => {
      stage.classList.add("ovation-stage-queue");
      drawQueue(stage, readQueue(config.module_state) ?? { open: false, count: 0, entries: [], current: null });
      socket.on("bot-module", (update) => {
        if (update.event !== "queue.updated") return;
        const queue = readQueue(update.payload);
        if (queue) drawQueue(stage, queue);
      });
    },
    update: (config) => {
      const queue = readQueue(config.module_state);
      if (queue) drawQueue(stage, queue);
    },
    stop: () => stage.replaceChildren(),
  });
}
