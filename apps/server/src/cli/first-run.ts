import { buildDefaultAlertSet } from "@ovation/core";
import type { CatalogAlertType } from "@ovation/core";
import { DEFAULT_CLI_SCOPES } from "../auth/scopes.js";
import { engineConfig } from "../store/alert-sets.js";
import type { Repositories } from "../store/repositories.js";
import type { BrowserSourceRecord, UserRecord } from "../store/records.js";

/** The demo command the first start creates. */
export const DEMO_COMMAND = {
  command: "hug",
  command_aliases: ["cuddle"],
  response:
    '{% set target = args[1] %}{% if target %}{{ event.user.username }} sends a hug to {{ target }} <3{% else %}Use "!hug <username>" to send a hug!{% endif %}',
  command_regex: null,
  permissions: 0,
  price: 0,
  send_as: "reply",
  enable_when: "both",
  user_cooldown: 0,
  global_cooldown: 5,
  is_visible: true,
} as const;

/** Name of the user the first start creates. */
export const FIRST_USER_NAME = "streamer";

/** What the first-run bootstrap remembers in `meta.bootstrap`, so a restart creates nothing twice. */
interface BootstrapMarks {
  user_id?: number;
  alert_set_id?: number;
  command_id?: number;
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
 * Makes a fresh installation usable: a first user, the default AE4 alert set (every catalog type,
 * core's `buildDefaultAlertSet`), a demo command, a personal access token, and the default
 * alerts browser source. Each step runs once, remembered in the store's `meta.bootstrap`.
 * `options.catalog` (the catalog with the loaded plugins' platforms) puts their alert types in the set.
 */
export function bootstrap(repos: Repositories, options: { catalog?: readonly CatalogAlertType[] } = {}): BootstrapResult {
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

  if (marks.alert_set_id === undefined) {
    const config = engineConfig(buildDefaultAlertSet({ id: 1, user_id: user.id }, options.catalog ? { catalog: options.catalog } : {}));
    marks.alert_set_id = repos.alertSets.create({ user_id: user.id, name: "Default alerts", version: 4, config }).id;
    created.push("alert set");
  }

  if (marks.command_id === undefined) {
    marks.command_id = repos.commands.create(user.id, { ...DEMO_COMMAND, command_aliases: [...DEMO_COMMAND.command_aliases] }).id;
    created.push("command");
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
