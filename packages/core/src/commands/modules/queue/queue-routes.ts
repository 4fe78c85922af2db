import { z } from "zod";
import { BotRouteError } from "../../runtime/bot-module.js";
import type { BotModuleContext, BotModuleRoute } from "../../runtime/bot-module.js";
import { QUEUE_LIMITS, queueEntrySchema, queuePickSchema, queueSettingsSchema } from "./queue-record.js";
import type { QueuePick, QueueView } from "./queue-record.js";

/** What the queue's routes need of the module. */
export interface QueueRoutesTarget {
  view(channel: string, ctx: BotModuleContext): Promise<QueueView>;
  setOpen(channel: string, open: boolean, ctx: BotModuleContext): Promise<QueueView>;
  configure(channel: string, input: unknown, ctx: BotModuleContext): Promise<QueueView>;
  pick(channel: string, mode: "next" | "random", count: number, ctx: BotModuleContext): Promise<QueuePick[]>;
  announcePicks(channel: string, picks: readonly QueuePick[], ctx: BotModuleContext): Promise<void>;
  remove(channel: string, viewer: { platform: string; user_platform_id: string }, ctx: BotModuleContext): Promise<boolean>;
  clear(channel: string, ctx: BotModuleContext): Promise<QueueView>;
}

/** The queue as the API answers it. */
export const queueViewSchema = z
  .object({
    open: z.boolean(),
    settings: queueSettingsSchema,
    count: z.number().int(),
    entries: z.array(queueEntrySchema.extend({ position: z.number().int().describe("1 = next in line") })),
    picked: z.array(queuePickSchema).describe("The latest picks, newest first"),
  })
  .meta({ id: "ViewerQueue" });

const SCOPE = "chatbot:manage:queue";

/** The queue's API, mounted at `/v1/bots/{user}/queue...` (docs/queue.md). */
export function queueRoutes(queue: QueueRoutesTarget): BotModuleRoute[] {
  return [
    {
      method: "GET",
      path: "queue",
      scope: SCOPE,
      summary: "The viewer queue: open or closed, settings, waiting viewers in order, latest picks",
      response: queueViewSchema,
      handle: ({ channel, context: ctx }) => queue.view(channel, ctx),
    },
    {
      method: "PUT",
      path: "queue/settings",
      scope: SCOPE,
      summary: "Replace the queue's settings (subscriber priority, size, announcements)",
      body: queueSettingsSchema,
      response: queueViewSchema,
      handle: ({ channel, body, context: ctx }) => queue.configure(channel, body, ctx),
    },
    {
      method: "POST",
      path: "queue/open",
      scope: SCOPE,
      summary: "Open the queue: viewers may !join",
      response: queueViewSchema,
      handle: ({ channel, context: ctx }) => queue.setOpen(channel, true, ctx),
    },
    {
      method: "POST",
      path: "queue/close",
      scope: SCOPE,
      summary: "Close the queue: no more !join (waiting viewers stay and can be picked)",
      response: queueViewSchema,
      handle: ({ channel, context: ctx }) => queue.setOpen(channel, false, ctx),
    },
    {
      method: "POST",
      path: "queue/pick",
      errors: [409],
      scope: SCOPE,
      summary: "Pick the next viewers in line, or at random; they leave the queue",
      description: "409 `OVATION_ERR_QUEUE_EMPTY` when nobody is waiting.",
      body: z.object({
        mode: z.enum(["next", "random"]).default("next"),
        count: z.number().int().min(1).max(QUEUE_LIMITS.maxPick).default(1),
      }),
      response: z.object({ picked: z.array(queuePickSchema), queue: queueViewSchema }),
      async handle({ channel, body, context: ctx }) {
        const { mode, count } = body as { mode: "next" | "random"; count: number };
        const picked = await queue.pick(channel, mode, count, ctx);
        if (picked.length === 0) throw new BotRouteError(409, "OVATION_ERR_QUEUE_EMPTY", "Nobody is waiting in the queue.");
        await queue.announcePicks(channel, picked, ctx);
        return { picked, queue: await queue.view(channel, ctx) };
      },
    },
    {
      method: "DELETE",
      path: "queue/entries/:platform/:user_platform_id",
      errors: [404],
      scope: SCOPE,
      summary: "Take one viewer out of the queue",
      description: "404 `OVATION_ERR_QUEUE_NOT_IN_QUEUE` when that viewer is not waiting.",
      params: z.object({ platform: z.string().min(1).max(64), user_platform_id: z.string().min(1).max(256) }),
      status: 204,
      async handle({ channel, params, context: ctx }) {
        const viewer = { platform: params["platform"] ?? "", user_platform_id: params["user_platform_id"] ?? "" };
        if (!(await queue.remove(channel, viewer, ctx))) throw new BotRouteError(404, "OVATION_ERR_QUEUE_NOT_IN_QUEUE", "That viewer is not in the queue.");
        return null;
      },
    },
    {
      method: "DELETE",
      path: "queue/entries",
      scope: SCOPE,
      summary: "Empty the queue (the latest picks stay)",
      status: 204,
      async handle({ channel, context: ctx }) {
        await queue.clear(channel, ctx);
        return null;
      },
    },
  ];
}
