import { DEFAULT_CLI_SCOPES, KNOWN_SCOPES } from "../auth/scopes.js";
import type { CliIo } from "./io.js";

/** Words on indented lines of at most `width` characters. */
function wrap(words: readonly string[], width: number): string {
  const lines: string[] = [];
  let line = " ";
  for (const word of words) {
    if (line.length + 1 + word.length > width) {
      lines.push(line);
      line = " ";
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines.join("\n");
}

/** The text of `ovation --help`. */
export const HELP_TEXT = `ovation: the Ovation server and its admin commands (all non-interactive)

Usage:
  ovation start                                      start the server (first run: creates a user,
                                                     a default alert set, a demo command, a token)
  ovation user create --name NAME [--email EMAIL]    create a user; prints it as JSON
  ovation user password --user NAME [--email EMAIL]  set the user's password, read from standard input
                                                     (and email address), to sign in to the dashboard
  ovation token create --user NAME [--scopes "S1 S2"] [--name LABEL]
                                                     create a personal access token (6 months);
                                                     prints only the token
  ovation client create --name NAME --redirect-uri URI [--redirect-uri URI2...] [--public]
                                                     register an OAuth client; prints its id and secret
  ovation client list                                the registered OAuth clients, as JSON lines
  ovation chat [--as NAME] [--badge moderator] [--token T] [--user U] [--url URL]
                                                     chat with your bot in the running server
                                                     (OVATION_PLUGINS: console (default), twitch, youtube, kick, tiktok)
  ovation simulate <event> [--platform P] [--name N] [--user U] [--data JSON]
                                                     send a platform event through the running server
                                                     as its plugin would: follow, raid, stream online...
                                                     (platform twitch and the first user by default;
                                                     marked simulated in the alert log)
  ovation plugins [--json]                           the loaded platform plugins and each one's status
                                                     (asks the running server; else checks the settings)
  ovation migrate-store --from lowdb --to postgres [--database-url URL] [--replace]
                                                     copy the data directory's store into PostgreSQL
                                                     (OVATION_DATABASE_URL) and verify counts and
                                                     checksums; stop the server first
  ovation --help                                     this text

Scopes (space or comma separated):
${wrap([...KNOWN_SCOPES], 100)}
  Default (tokens made without --scopes and the first-start token):
${wrap([...DEFAULT_CLI_SCOPES], 100)}

Environment:
  PORT (8080)  HOST (0.0.0.0)  OVATION_DATA_DIR (./data)  OVATION_PUBLIC_URL (http://localhost:PORT)
  OVATION_BROWSER_SOURCE_URL (<public url>/browser-source)  OVATION_OUTBOUND_ALLOWLIST (empty)
  OVATION_LOG_LEVEL (info)  OVATION_SERVER_ID (host name)  OVATION_RATE_LIMIT_PER_MINUTE (600)
  OVATION_BODY_LIMIT_BYTES (262144)  OVATION_TRUST_PROXY (false)
  OVATION_HEADERS_TIMEOUT_SECONDS (20)  OVATION_BODY_TIMEOUT_SECONDS (30)
  OVATION_MEDIA_QUOTA_FILES (200)  OVATION_MEDIA_QUOTA_BYTES (268435456)
  OVATION_PLUGINS (console): built-in names (console, twitch, tiktok, youtube, kick), package names or
    paths, comma separated
  OVATION_PLUGIN_<ID>_<KEY>: a plugin's settings  OVATION_CONFIG_FILE (<data dir>/ovation.config.json)
  OVATION_DATABASE_URL (unset: the store is files in the data directory)
  OVATION_REDIS_URL (unset: one node; set: nodes share rate limits, cooldowns, sockets through Redis)
  OVATION_NODE_TTL_SECONDS (default 15; with Redis: seconds a stopped node stays listed in /server-ids)

user/token create work while the server runs (through its admin socket in the data directory).
`;

/** Prints the help. */
export function runHelp(io: CliIo): number {
  io.out(HELP_TEXT);
  return 0;
}
