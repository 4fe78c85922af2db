import type { BrowserSourcesRepository } from "./browser-sources.js";
import { splitSharedDocument, userKey } from "./per-user-extensions.js";
import type { Store } from "./store.js";

const KIND = "browser_source_first_joined";

/**
 * When each browser source first joined its room (epoch ms), for the backlog replayed on
 * reconnection: one document per user (`extensions.browser_source_first_joined.<userId>`, source
 * id -> ms), so a source joining never rewrites other users' sources. A store still holding the
 * shared document of every source is split at start (a source that no longer exists is dropped).
 */
export class BrowserSourceJoinsRepository {
  readonly #store: Store;

  constructor(store: Store, sources: Pick<BrowserSourcesRepository, "get">) {
    this.#store = store;
    splitSharedDocument<Record<string, number>, Record<string, number>>(store, KIND, (shared) => {
      const perUser = new Map<number, Record<string, number>>();
      for (const [id, at] of Object.entries(shared)) {
        const source = sources.get(Number(id));
        if (source === null) continue;
        const joined = perUser.get(source.user_id) ?? {};
        joined[id] = at;
        perUser.set(source.user_id, joined);
      }
      return { rest: null, perUser };
    });
  }

  #joins(userId: number) {
    return this.#store.extension<Record<string, number>>(userKey(KIND, userId), () => ({}));
  }

  /** When the source first joined, or undefined when it never did. */
  firstJoined(userId: number, sourceId: number): number | undefined {
    return this.#joins(userId).read()[String(sourceId)];
  }

  /** Records the first join of a source (a later call replaces the time: tests set it back). */
  setFirstJoined(userId: number, sourceId: number, at: number): void {
    this.#joins(userId).update((joins) => void (joins[String(sourceId)] = at));
  }
}
