import { z } from "zod";

/** Bounds of the viewer queue; documented in docs/queue.md. */
export const QUEUE_LIMITS = {
  /** Most viewers waiting at once (and the default `max_entries`). */
  maxEntries: 1000,
  /** Characters of the note a viewer may add (`!join MyGamerTag`). */
  noteLength: 100,
  /** Most viewers picked at once. */
  maxPick: 10,
  /** Picked viewers remembered (newest first), shown as "now playing". */
  pickedKept: 20,
} as const;

/** How the queue runs. */
export const queueSettingsSchema = z.object({
  /** Subscribers wait before everyone else (in the order they joined); random picks prefer them. */
  subscriber_priority: z.boolean().default(false),
  /** Most viewers waiting; `!join` answers "full" beyond. */
  max_entries: z.number().int().min(1).max(QUEUE_LIMITS.maxEntries).default(QUEUE_LIMITS.maxEntries),
  /** Say in chat when the queue opens or closes and who is picked. */
  announce: z.boolean().default(true),
});

/** Validated queue settings. */
export type QueueSettings = z.output<typeof queueSettingsSchema>;

/** One waiting viewer (one place per viewer and platform). */
export const queueEntrySchema = z.object({
  platform: z.string(),
  user_platform_id: z.string(),
  username: z.string(),
  /** Wore a subscriber (or member, founder) badge when joining. */
  subscriber: z.boolean(),
  /** What the viewer wrote after `!join` (a gamer tag, a level code), or "". */
  note: z.string().max(QUEUE_LIMITS.noteLength),
  joined_at: z.number().int(),
});

/** One waiting viewer. */
export type QueueEntry = z.output<typeof queueEntrySchema>;

/** A picked viewer. */
export const queuePickSchema = queueEntrySchema.extend({ picked_at: z.number().int() });
/** A picked viewer. */
export type QueuePick = z.output<typeof queuePickSchema>;

/** The whole queue of a channel, as stored (table `queue`, key `state`). */
export const queueStateSchema = z.object({
  open: z.boolean(),
  settings: queueSettingsSchema,
  /** In the order viewers joined; {@link orderedEntries} gives the waiting order. */
  entries: z.array(queueEntrySchema),
  /** The latest picks, newest first. */
  picked: z.array(queuePickSchema),
});

/** The whole queue of a channel. */
export type QueueState = z.output<typeof queueStateSchema>;

/** A waiting viewer with their place (1 = next). */
export type QueueEntryView = QueueEntry & { position: number };

/** The queue as the API, the dashboard and the `queue` browser source see it. */
export interface QueueView {
  open: boolean;
  settings: QueueSettings;
  count: number;
  entries: QueueEntryView[];
  picked: QueuePick[];
}

/** The waiting order: join order, with subscribers first when `subscriber_priority` is on. */
export function orderedEntries(state: QueueState): QueueEntry[] {
  if (!state.settings.subscriber_priority) return [...state.entries];
  return [...state.entries.filter((e) => e.subscriber), ...state.entries.filter((e) => !e.subscriber)];
}

/** The public view of a queue. */
export function queueView(state: QueueState): QueueView {
  const entries = orderedEntries(state).map((entry, index) => ({ ...entry, position: index + 1 }));
  return { open: state.open, settings: { ...state.settings }, count: entries.length, entries, picked: state.picked.map((p) => ({ ...p })) };
}

/** A closed, empty queue with the default settings. */
export function emptyQueue(): QueueState {
  return { open: false, settings: queueSettingsSchema.parse({}), entries: [], picked: [] };
}
