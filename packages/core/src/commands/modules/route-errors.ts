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
