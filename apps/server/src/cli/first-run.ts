import { DEFAULT_CLI_SCOPES } from "../auth/scopes.js";
import type { Repositories } from "../store/repositories.js";
import type { BrowserSourceRecord, UserRecord } from "../store/records.js";

/** Name of the user the first start creates. */
export const FIRST_USER_NAME = "streamer";

/** What the first-run bootstrap remembers in `meta.bootstrap`, so a restart creates nothing twice. */
interface BootstrapMarks {
  user_id?: number;
  token_id?: number;
  browser_source_id?: number;
}

/** What `bootstrap` found or made. */
export interface BootstrapResult {
  user: UserRecord;
  browserSource: BrowserSourceRecord;
  /** The raw token, only when it was created by this call (it is never shown again). */
  newToken: string | null;
  /** Names of the things created by this call. */
  created: string[];
}

/**
 * Makes a fresh installation usable: a first user, a personal access token, and the default
 * alerts browser source. Each step runs once, remembered in the store's `meta.bootstrap`.
 */
export function bootstrap(repos: Repositories): BootstrapResult {
  const marks = { ...((repos.store.data.meta["bootstrap"] as BootstrapMarks | undefined) ?? {}) };
  const created: string[] = [];

  let user = marks.user_id === undefined ? null : repos.users.get(marks.user_id);
  if (!user) {
    user = repos.users.findByName(FIRST_USER_NAME) ?? repos.users.list()[0] ?? null;
    if (!user) {
      user = repos.users.create({ name: FIRST_USER_NAME });
      created.push("user");
    }
    marks.user_id = user.id;
  }

  let newToken: string | null = null;
  if (marks.token_id === undefined) {
    const { record, token } = repos.tokens.create({ user_id: user.id, name: "quick start", scopes: DEFAULT_CLI_SCOPES });
    marks.token_id = record.id;
    newToken = token;
    created.push("token");
  }

  const { record: browserSource, created: sourceCreated } = repos.browserSources.findOrCreate(user.id, "alerts", null);
  if (sourceCreated) created.push("browser source");
  marks.browser_source_id = browserSource.id;

  repos.store.update((data) => {
    data.meta["bootstrap"] = marks;
  });
  return { user, browserSource, newToken, created };
}
