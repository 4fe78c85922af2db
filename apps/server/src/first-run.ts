import { buildDefaultAlertSet } from "@ovation/core";
import type { CatalogAlertType } from "@ovation/core";
import { engineConfig } from "./store/alert-sets.js";
import { DEFAULT_CLI_SCOPES } from "./auth/scopes.js";
import { FIRST_USER_NAME } from "./first-user.js";
import type { Repositories } from "./store/repositories.js";
import type { BrowserSourceRecord, UserRecord } from "./store/records.js";

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


/** What the first-run bootstrap remembers in `meta.bootstrap`, so a restart creates nothing twice. */
interface BootstrapMarks {
  user_id?: number;
  alert_set_id?: number;
  command_id?: number;
  token_id?: number;
  browser_source_id?: number;
  /** Set when the first start found users it had not created: no demo data, ever. */
  skipped?: boolean;
}

/** What `bootstrap` found or made in the user it created itself. */
export interface SeededBootstrap {
  kind: "seeded";
  user: UserRecord;
  browserSource: BrowserSourceRecord;
  /** The raw token, only when it was created by this call (it is never shown again). */
  newToken: string | null;
  /** Names of the things created by this call. */
  created: string[];
}

/** The installation already had users the first start did not create: nothing was made. */
export interface SkippedBootstrap {
  kind: "existing-users";
  /** Names of the existing users (at most 10), for the hint on how to make a token. */
  users: string[];
  created: [];
}

/** What `bootstrap` did. */
export type BootstrapResult = SeededBootstrap | SkippedBootstrap;

/**
 * Makes a fresh installation usable. With no user at all it creates the user `streamer` (who,
 * like every new user, gets the default AE4 alert set), a demo command, a personal access token
 * and the default alerts browser source; each step runs once, remembered in `meta.bootstrap`.
 * When users already exist that it did not create, it creates no demo data (now or later) and
 * the quick start says how to make a token instead.
 * `options.catalog` (the catalog with the loaded plugins' platforms) puts their alert types in the
 * demo user's set.
 */
export function bootstrap(repos: Repositories, options: { catalog?: readonly CatalogAlertType[] } = {}): BootstrapResult {
  const stored = (repos.store.data.meta["bootstrap"] as BootstrapMarks | undefined) ?? {};
  const marks = { ...stored };
  const created: string[] = [];
  // Only the meta document changes: an update that names nothing would rewrite every document,
  // at every start (with several nodes on one database, hundreds of users' documents written in
  // one batch that conflicts with the other nodes' writes and holds the start until it lands).
  // And only when the marks changed: a later start writes nothing (every node would rewrite meta).
  const remember = () => {
    if (JSON.stringify(marks) === JSON.stringify(stored)) return;
    repos.store.update(
      (data) => {
        data.meta["bootstrap"] = marks;
      },
      { meta: true },
    );
  };

  let user = marks.user_id === undefined ? null : repos.users.get(marks.user_id);
  if (!user) {
    const existing = repos.users.list();
    if (marks.skipped === true || existing.length > 0) {
      marks.skipped = true;
      remember();
      return { kind: "existing-users", users: existing.slice(0, 10).map((u) => u.name), created: [] };
    }
    user = repos.users.create({ name: FIRST_USER_NAME });
    created.push("user", "alert set");
    marks.user_id = user.id;
    const active = repos.alertSets.activeForUser(user.id);
    if (active && options.catalog) {
      const config = engineConfig(buildDefaultAlertSet({ id: 1, user_id: user.id }, { catalog: options.catalog }));
      repos.alertSets.update(user.id, active.id, { config });
    }
    marks.alert_set_id = active?.id;
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

  remember();
  return { kind: "seeded", user, browserSource, newToken, created };
}
