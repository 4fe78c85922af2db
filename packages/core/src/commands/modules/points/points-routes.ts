import { z } from "zod";
import { POINTS_TABLE, storedNumber, updateFields } from "../../key-value-store.js";
import { BotRouteError } from "../../runtime/bot-module.js";
import type { BotModuleContext, BotModuleRoute, BotRouteRequest } from "../../runtime/bot-module.js";
import { formatPointsCsv, parsePointsCsv } from "./points-csv.js";
import { appendPointsHistory, clampBalance, pointsHistory, pointsStandings, rememberViewers, savePointsSettings, storedViewerOf } from "./points-ledger.js";
import { POINTS_ERROR_CODES, POINTS_LIMITS, POINTS_REASONS, pointsHistoryEntrySchema, pointsSettingsSchema } from "./points-record.js";
import type { PointsReason, PointsSettings, PointsViewer } from "./points-record.js";

/** The token scope of the points routes. */
export const POINTS_SCOPE = "chatbot:manage:points";

const standingSchema = z.object({
  rank: z.number().int(),
  viewer: z.string(),
  name: z.string().nullable(),
  platform: z.string().nullable(),
  points: z.number().int(),
});
const viewerSchema = z.object({ viewer: z.string(), name: z.string().nullable(), platform: z.string().nullable(), points: z.number().int() });
const viewerParams = z.object({ viewer: z.string().min(3).max(POINTS_LIMITS.viewerLength) });
const page = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(25),
  offset: z.coerce.number().int().min(0).default(0),
});

/** What the points routes ask of the points module (`PointsModule` implements it). */
export interface PointsRoutesTarget {
  settings(channel: string, ctx: BotModuleContext): Promise<PointsSettings>;
  useSettings(channel: string, ctx: BotModuleContext, settings: PointsSettings): Promise<void>;
  flush(channel: string, ctx: BotModuleContext): Promise<void>;
  adjust(channel: string, ctx: BotModuleContext, wallet: string, delta: number, reason: PointsReason, by: string | null): Promise<{ balance: number; applied: number }>;
}

/** The points API of the points module, mounted at `/v1/bots/{user}/points...` (scope `chatbot:manage:points`). */
export function pointsRoutes(points: PointsRoutesTarget): BotModuleRoute[] {
  const viewerView = async (request: BotRouteRequest, wallet: string) => {
    const { store } = request.context;
    const known = await storedViewerOf(store, request.channel, wallet);
    const balance = await store.table(request.channel, POINTS_TABLE).then((fields) => (Object.hasOwn(fields, wallet) ? storedNumber(fields[wallet]) : null));
    if (known === null && balance === null) throw new BotRouteError(404, POINTS_ERROR_CODES.viewerNotFound, `No points and no name are stored for viewer ${wallet}.`);
    return { viewer: wallet, name: known?.name ?? null, platform: known?.platform ?? null, points: balance ?? 0 };
  };
  return [
    {
      method: "GET",
      path: "points/settings",
      scope: POINTS_SCOPE,
      summary: "The loyalty points settings",
      response: pointsSettingsSchema,
      handle: (request) => points.settings(request.channel, request.context),
    },
    {
      method: "PUT",
      path: "points/settings",
      scope: POINTS_SCOPE,
      summary: "Replace the loyalty points settings (fields left out take their defaults)",
      body: pointsSettingsSchema,
      response: pointsSettingsSchema,
      async handle(request) {
        const settings = pointsSettingsSchema.parse(request.body);
        await savePointsSettings(request.context.store, request.channel, settings);
        await points.useSettings(request.channel, request.context, settings);
        return settings;
      },
    },
    {
      method: "GET",
      path: "points/leaderboard",
      scope: POINTS_SCOPE,
      summary: "Viewers by balance, highest first",
      query: page,
      response: z.object({ data: z.array(standingSchema), total: z.number().int(), currency: z.string() }),
      async handle(request) {
        const { limit, offset } = page.parse(request.query);
        await points.flush(request.channel, request.context);
        const rows = await pointsStandings(request.context.store, request.channel);
        const currency = (await points.settings(request.channel, request.context)).currency;
        return { data: rows.slice(offset, offset + limit), total: rows.length, currency };
      },
    },
    {
      method: "GET",
      path: "points/history",
      scope: POINTS_SCOPE,
      summary: `The latest changes of balances, newest first (at most ${POINTS_LIMITS.historyEntries} are kept)`,
      query: z.object({ limit: z.coerce.number().int().min(1).max(POINTS_LIMITS.historyEntries).default(100), reason: z.enum(POINTS_REASONS).optional() }),
      response: z.object({ data: z.array(pointsHistoryEntrySchema) }),
      async handle(request) {
        const limit = Number(request.query["limit"] ?? 100);
        const reason = request.query["reason"];
        await points.flush(request.channel, request.context);
        const entries = await pointsHistory(request.context.store, request.channel);
        return { data: entries.filter((e) => reason === undefined || e.reason === reason).slice(0, limit) };
      },
    },
    {
      method: "GET",
      path: "points/viewers/:viewer",
      errors: [404],
      scope: POINTS_SCOPE,
      summary: "One viewer's balance (viewer = account:<id> or <platform>:<platform user id>)",
      params: viewerParams,
      response: viewerSchema,
      async handle(request) {
        await points.flush(request.channel, request.context);
        return viewerView(request, request.params["viewer"] ?? "");
      },
    },
    {
      method: "POST",
      path: "points/viewers/:viewer/adjust",
      errors: [404],
      scope: POINTS_SCOPE,
      summary: "Add points to a viewer (a negative amount takes them; balances stay within 0 and the limit)",
      params: viewerParams,
      body: z.object({ amount: z.number().int().min(-POINTS_LIMITS.maxBalance).max(POINTS_LIMITS.maxBalance).refine((n) => n !== 0, "must not be 0") }),
      response: viewerSchema,
      async handle(request) {
        const wallet = request.params["viewer"] ?? "";
        await points.flush(request.channel, request.context);
        await viewerView(request, wallet);
        const { amount } = request.body as { amount: number };
        await points.adjust(request.channel, request.context, wallet, amount, amount > 0 ? "add" : "remove", "api");
        return viewerView(request, wallet);
      },
    },
    {
      method: "GET",
      path: "points/export",
      scope: POINTS_SCOPE,
      summary: "Every balance as CSV (viewer,name,platform,points)",
      response: z.object({ csv: z.string(), viewers: z.number().int() }),
      async handle(request) {
        await points.flush(request.channel, request.context);
        const rows = await pointsStandings(request.context.store, request.channel);
        return { csv: formatPointsCsv(rows), viewers: rows.length };
      },
    },
    {
      method: "POST",
      path: "points/import",
      scope: POINTS_SCOPE,
      summary: "Set (or add to) balances from CSV; a file with any bad line changes nothing",
      description:
        "The CSV has a header line naming its columns: viewer and points, optionally name and platform (the export's form). `mode: set` replaces each listed balance, `add` adds to it. Every line is checked first; one bad line answers 422 with `errors` keyed `line <n>` and nothing is changed.",
      body: z.object({ csv: z.string().max(POINTS_LIMITS.csvChars), mode: z.enum(["set", "add"]).default("set") }),
      response: z.object({ imported: z.number().int(), mode: z.enum(["set", "add"]) }),
      async handle(request) {
        const { csv, mode } = request.body as { csv: string; mode: "set" | "add" };
        const parsed = parsePointsCsv(csv, mode);
        if (!parsed.ok) {
          const lines = Object.keys(parsed.errors).length;
          throw new BotRouteError(422, POINTS_ERROR_CODES.invalidCsv, `The CSV has ${lines} wrong line${lines === 1 ? "" : "s"}; nothing was imported.`, parsed.errors);
        }
        const { store } = request.context;
        const channel = request.channel;
        await points.flush(channel, request.context);
        const values = new Map(parsed.rows.map((row) => [row.viewer, row.points]));
        let delta = 0;
        try {
          // One batched write: the store applies all of it or (a cap) none of it.
          await updateFields(store, channel, POINTS_TABLE, [...values.keys()], (wallet, current) => {
            const before = storedNumber(current);
            const next = clampBalance(mode === "set" ? (values.get(wallet) ?? before) : before + (values.get(wallet) ?? 0));
            delta += next - before;
            return next;
          });
        } catch (err) {
          if (err instanceof RangeError) throw new BotRouteError(422, POINTS_ERROR_CODES.capReached, `Nothing was imported: ${err.message}.`);
          throw err;
        }
        const names = new Map<string, PointsViewer>();
        for (const row of parsed.rows) if (row.name !== null) names.set(row.viewer, { name: row.name, platform: row.platform ?? row.viewer.split(":")[0] ?? "" });
        try {
          await rememberViewers(store, channel, names);
        } catch (err) {
          request.context.log.warn({ err, channel }, "points import: the viewers' names were not stored");
        }
        await appendPointsHistory(store, channel, [
          { at: new Date(request.context.now()).toISOString(), reason: "import", viewer: null, name: null, delta, balance: null, viewers: values.size, by: "api" },
        ]);
        return { imported: values.size, mode };
      },
    },
  ];
}
