import { BotRouteError } from "../runtime/bot-module.js";

/**
 * One error code of a module's routes: its HTTP status, default message and meaning. A module's
 * table of them (`TIMERS_ERROR_CODES`...) is spread into the host's registry, which documents them.
 */
export interface BotRouteErrorEntry {
  readonly status: BotRouteError["status"];
  readonly message: string;
  readonly description: string;
}

/** A {@link BotRouteError} of a module's code table, with the entry's status and (by default) message. */
export function routeError<const Table extends Readonly<Record<string, BotRouteErrorEntry>>>(
  table: Table,
  code: keyof Table & string,
  options: { message?: string; errors?: Readonly<Record<string, string[]>> } = {},
): BotRouteError {
  const entry = table[code] as BotRouteErrorEntry;
  return new BotRouteError(entry.status, code, options.message ?? entry.message, options.errors);
}

/**
 * The codes every module route may answer besides its module's own (the server's registry spreads
 * this table in): a change the store could not write.
 */
export const BOT_ROUTE_ERROR_CODES = {
  OVATION_ERR_STORE_WRITE_FAILED: {
    status: 503,
    message: "The change could not be stored; try again later.",
    description:
      "A change through a bot module's route could not be written (a full disk, a read-only data directory, the database unreachable): nothing was announced in chat or to the browser sources for it, and the change holds in the server's memory only until it restarts.",
  },
} as const satisfies Readonly<Record<string, BotRouteErrorEntry>>;

/**
 * Waits for `write` (a store's `persisted()`): a change is announced (chat, browser sources) only
 * after it. A failed write is logged and thrown as the 503 `OVATION_ERR_STORE_WRITE_FAILED`, so the
 * caller hears of it and nothing is announced.
 */
export async function storedOrRouteError(write: Promise<void> | void, log: { error(fields: Record<string, unknown>, message: string): void }, fields: Record<string, unknown>): Promise<void> {
  try {
    await write;
  } catch (err) {
    log.error({ ...fields, err }, "bot module change not stored");
    throw routeError(BOT_ROUTE_ERROR_CODES, "OVATION_ERR_STORE_WRITE_FAILED");
  }
}
