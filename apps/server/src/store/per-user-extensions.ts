import type { Store } from "./store.js";

/** The extension key of one user's document of `kind`. */
export function userKey(kind: string, userId: number): string {
  return `${kind}.${userId}`;
}

/**
 * Splits a shared document of every user's data (`extensions.<kind>`, the layout before per-user
 * documents) into one document per user, in one write; `split` returns what stays under `kind`
 * (null: nothing) and each user's part. A per-user document already there is kept (never
 * overwritten). Does nothing when the shared document is absent or already split.
 */
export function splitSharedDocument<S, U>(store: Store, kind: string, split: (shared: S) => { rest: unknown; perUser: Map<number, U> } | null): void {
  if (!store.extensionKeys(kind).includes(kind)) return;
  store.update((data, touch) => {
    const shared = data.extensions[kind] as S | undefined;
    const parts = shared === undefined ? null : split(shared);
    if (parts === null) return;
    const keys = [kind];
    for (const [userId, value] of parts.perUser) {
      const key = userKey(kind, userId);
      if (data.extensions[key] === undefined) data.extensions[key] = value;
      keys.push(key);
    }
    if (parts.rest === null) delete data.extensions[kind];
    else data.extensions[kind] = parts.rest;
    touch({ extensions: keys });
  }, {});
}
