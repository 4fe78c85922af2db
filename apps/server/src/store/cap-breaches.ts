import type { Logger } from "pino";
import type { Repositories } from "./repositories.js";
import { USER_CAPS, VIEWER_TABLES, alertLogEntryBytes } from "./user-caps.js";

/** One cap a stored user breaks. */
export interface CapBreach {
  userId: number;
  cap: keyof typeof USER_CAPS;
  limit: number;
  actual: number;
}

/**
 * Reports, at start, every user whose stored data breaks a cap (a store written before the caps, or
 * edited by hand). Nothing is refused or deleted: the server starts, the breach is logged as a
 * warning, and further growth of that kind is refused until the user is back under the cap.
 */
export function reportCapBreaches(repos: Repositories, kvTables: (channel: string) => Record<string, Record<string, unknown>>, logger: Logger): CapBreach[] {
  const breaches: CapBreach[] = [];
  for (const user of repos.users.list()) {
    const check = (cap: keyof typeof USER_CAPS, actual: number) => {
      if (actual > USER_CAPS[cap]) breaches.push({ userId: user.id, cap, limit: USER_CAPS[cap], actual });
    };
    check("commands", repos.commands.listForUser(user.id).length);
    check("alertLogBytes", repos.alertLog.recent(user.id, Number.MAX_SAFE_INTEGER).reduce((sum, e) => sum + alertLogEntryBytes(e), 0));
    const byName = Object.entries(kvTables(String(user.id)));
    check("kvTables", byName.length);
    check("kvKeys", byName.reduce((sum, [name, table]) => sum + (VIEWER_TABLES.has(name) ? 0 : Object.keys(table).length), 0));
    for (const [name, table] of byName) if (VIEWER_TABLES.has(name)) check("pointsViewers", Object.keys(table).length);
  }
  for (const breach of breaches) {
    logger.warn(breach, `user ${breach.userId} breaks the ${breach.cap} cap (${breach.actual} > ${breach.limit}); starting anyway, further growth is refused`);
  }
  return breaches;
}
