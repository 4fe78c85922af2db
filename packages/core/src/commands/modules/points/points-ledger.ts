import type { KeyValueStore } from "../../key-value-store.js";
import { POINTS_TABLE, readField, storedNumber, updateFields } from "../../key-value-store.js";
import {
  POINTS_CONFIG_TABLE,
  POINTS_HISTORY_KEY,
  POINTS_HISTORY_TABLE,
  POINTS_LIMITS,
  POINTS_SETTINGS_KEY,
  POINTS_VIEWERS_TABLE,
  pointsHistoryEntrySchema,
  storedPointsSettings,
  storedViewer,
} from "./points-record.js";
import type { PointsHistoryEntry, PointsSettings, PointsViewer } from "./points-record.js";

/**
 * The points' reads and writes on a channel's key-value store: what the points module, a command's
 * `price` (through the host) and the API share. No state of its own.
 */

/** A balance kept within 0 and the largest balance. */
export function clampBalance(value: number): number {
  return Math.min(POINTS_LIMITS.maxBalance, Math.max(0, Math.floor(value)));
}

/** The stored balance of `wallet` (0 when none). */
export async function pointsBalance(store: KeyValueStore, channel: string, wallet: string): Promise<number> {
  return storedNumber(await readField(store, channel, POINTS_TABLE, wallet));
}

/**
 * Adds `delta` (negative to take) to one balance, atomically, kept within 0 and the largest balance.
 * Resolves to the balance after and the change actually made.
 */
export async function adjustPoints(store: KeyValueStore, channel: string, wallet: string, delta: number): Promise<{ balance: number; applied: number }> {
  let applied = 0;
  const after = await store.update(channel, POINTS_TABLE, wallet, (current) => {
    const before = storedNumber(current);
    const next = clampBalance(before + delta);
    applied = next - before;
    return next;
  });
  return { balance: storedNumber(after), applied };
}

/** Adds each wallet's amount in one batched write when the store can; resolves to the store writes made. */
export function awardPoints(store: KeyValueStore, channel: string, awards: ReadonlyMap<string, number>): Promise<number> {
  return updateFields(store, channel, POINTS_TABLE, [...awards.keys()], (wallet, current) => clampBalance(storedNumber(current) + (awards.get(wallet) ?? 0)));
}

/**
 * Stores viewers' names in batched writes of at most `POINTS_LIMITS.nameBatch` viewers, letting
 * the event loop run between them; resolves to the store writes made. Names are independent of one
 * another, so a tick that names a crowd at once (97,000 chatters held one update 400-450 ms) no
 * longer holds every other request of the server for its whole length.
 */
export async function rememberViewers(store: KeyValueStore, channel: string, viewers: ReadonlyMap<string, PointsViewer>): Promise<number> {
  const wallets = [...viewers.keys()];
  let writes = 0;
  for (let start = 0; start < wallets.length; start += POINTS_LIMITS.nameBatch) {
    if (start > 0) await new Promise((resolve) => setTimeout(resolve, 0));
    writes += await updateFields(store, channel, POINTS_VIEWERS_TABLE, wallets.slice(start, start + POINTS_LIMITS.nameBatch), (wallet, current) => {
      const viewer = viewers.get(wallet);
      return viewer === undefined ? current : { name: viewer.name.slice(0, POINTS_LIMITS.nameLength), platform: viewer.platform };
    });
  }
  return writes;
}

/** The stored name of a wallet, or null. */
export async function storedViewerOf(store: KeyValueStore, channel: string, wallet: string): Promise<PointsViewer | null> {
  return storedViewer(await readField(store, channel, POINTS_VIEWERS_TABLE, wallet));
}

/** The channel's points settings (the defaults when none are stored). */
export async function loadPointsSettings(store: KeyValueStore, channel: string): Promise<PointsSettings> {
  return storedPointsSettings(await readField(store, channel, POINTS_CONFIG_TABLE, POINTS_SETTINGS_KEY));
}

/** Stores the channel's points settings. */
export async function savePointsSettings(store: KeyValueStore, channel: string, settings: PointsSettings): Promise<void> {
  await store.update(channel, POINTS_CONFIG_TABLE, POINTS_SETTINGS_KEY, () => ({ ...settings }));
}

/** The currency name of a channel (`points` by default), for messages about a command's price. */
export async function pointsCurrency(store: KeyValueStore, channel: string): Promise<string> {
  return (await loadPointsSettings(store, channel)).currency;
}

/** Appends changes to the channel's history (one write), dropping the oldest past the cap. */
export async function appendPointsHistory(store: KeyValueStore, channel: string, entries: readonly PointsHistoryEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await store.update(channel, POINTS_HISTORY_TABLE, POINTS_HISTORY_KEY, (current) => {
    const list = Array.isArray(current) ? (current as unknown[]) : [];
    return [...list, ...entries].slice(-POINTS_LIMITS.historyEntries);
  });
}

/** The channel's history, newest first (entries that do not parse are left out). */
export async function pointsHistory(store: KeyValueStore, channel: string): Promise<PointsHistoryEntry[]> {
  const list = await readField(store, channel, POINTS_HISTORY_TABLE, POINTS_HISTORY_KEY);
  if (!Array.isArray(list)) return [];
  const entries: PointsHistoryEntry[] = [];
  for (const item of list) {
    const parsed = pointsHistoryEntrySchema.safeParse(item);
    if (parsed.success) entries.push(parsed.data);
  }
  return entries.reverse();
}

/** One row of the leaderboard or an export. */
export interface PointsStanding {
  rank: number;
  viewer: string;
  name: string | null;
  platform: string | null;
  points: number;
}

/** Every wallet with its balance and name, highest balance first (ties by name, then wallet). */
export async function pointsStandings(store: KeyValueStore, channel: string): Promise<PointsStanding[]> {
  const [balances, viewers] = await Promise.all([store.table(channel, POINTS_TABLE), store.table(channel, POINTS_VIEWERS_TABLE)]);
  const rows = Object.entries(balances).map(([viewer, value]) => {
    const known = storedViewer(viewers[viewer]);
    return { rank: 0, viewer, name: known?.name ?? null, platform: known?.platform ?? null, points: storedNumber(value) };
  });
  rows.sort((a, b) => b.points - a.points || (a.name ?? "").localeCompare(b.name ?? "") || a.viewer.localeCompare(b.viewer));
  rows.forEach((row, index) => (row.rank = index + 1));
  return rows;
}

/**
 * The wallet of a viewer named `name` (without `@`, any case): among stored names, one on
 * `platform` first. Null when no stored viewer has that name.
 */
export async function walletByName(store: KeyValueStore, channel: string, name: string, platform: string): Promise<string | null> {
  const wanted = name.replace(/^@/, "").toLowerCase();
  let found: string | null = null;
  for (const [wallet, value] of Object.entries(await store.table(channel, POINTS_VIEWERS_TABLE))) {
    const viewer = storedViewer(value);
    if (viewer === null || viewer.name.toLowerCase() !== wanted) continue;
    if (viewer.platform === platform) return wallet;
    found ??= wallet;
  }
  return found;
}
