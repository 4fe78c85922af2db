import type { ServerConfig } from "./config.js";
import { dashboardUrl } from "./dashboard/dashboard-client.js";
import type { BootstrapResult } from "./first-run.js";

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The dashboard-less quick start printed by `ovation start`. */
export function quickStartText(config: ServerConfig, result: BootstrapResult): string {
  if (result.kind === "existing-users") {
    const who = result.users[0] ?? "<user>";
    return [
      "",
      `Ovation is running at ${config.publicUrl} (API docs: ${config.publicUrl}/docs)`,
      `Dashboard: ${dashboardUrl(config.publicUrl)} (sign in with an account's email address and password;`,
      `  npx ovation user password --user ${shellQuote(who)} --email <address> sets them, reading the password from standard input)`,
      "",
      `This installation already has users (${result.users.join(", ")}), so no demo data was created.`,
      "Make a personal access token for one of them with:",
      `  npx ovation token create --user ${shellQuote(who)}`,
      "then trigger an alert (every user has the default alert set):",
      `  curl -X POST ${config.publicUrl}/v1/alerts -H 'Authorization: Bearer <your token>' -H 'Content-Type: application/json' -H 'Accept: application/json' -d '{"template":"follow","data":{"name":"Alice"}}'`,
      "",
    ].join("\n");
  }
  const url = `${config.browserSourceUrl}/${result.browserSource.browser_source_type}/${result.browserSource.access_token}`;
  const token = result.newToken ?? "<your token>";
  const lines = [
    "",
    `Ovation is running at ${config.publicUrl} (API docs: ${config.publicUrl}/docs)`,
    "",
    `Dashboard: ${dashboardUrl(config.publicUrl)}`,
    ...(result.user.password_hash !== null && result.user.email !== null
      ? [
          `  Sign in as ${result.user.name} with its email address and password (this changes them, reading the password from standard input):`,
          `  npx ovation user password --user ${shellQuote(result.user.name)} --email <address>`,
        ]
      : [
          `  To sign in, give ${result.user.name} an email address and a password once (type the password, then Enter):`,
          `  npx ovation user password --user ${shellQuote(result.user.name)} --email you@example.com`,
        ]),
    "",
    result.newToken
      ? `Personal access token for ${result.user.name} (shown only now, keep it secret):\n  ${result.newToken}`
      : `The quick-start token was printed at the first start. Make another with:\n  npx ovation token create --user ${result.user.name}`,
    "",
    "Trigger an alert:",
    `  curl -X POST ${config.publicUrl}/v1/alerts -H ${shellQuote(`Authorization: Bearer ${token}`)} -H 'Content-Type: application/json' -H 'Accept: application/json' -d '{"template":"follow","data":{"name":"Alice"}}'`,
    "",
    "Try the demo command !hug (a dry run, nothing is sent to chat):",
    `  curl -X POST ${config.publicUrl}/v1/bots/@me/commands/test -H ${shellQuote(`Authorization: Bearer ${token}`)} -H 'Content-Type: application/json' -H 'Accept: application/json' -d '{"message":"!hug Alice"}'`,
    "",
    "Browser source (add it to OBS as a browser source, 1920x1080):",
    `  ${url}`,
    "",
  ];
  return lines.join("\n");
}
