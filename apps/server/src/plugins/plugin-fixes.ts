import type { PluginReport } from "./plugin-reports.js";
import type { UnservedPlatforms } from "./unserved-platforms.js";

/** Where a plugin's settings live, in words (its environment prefix and the config file section). */
function settingsPlace(report: PluginReport): string {
  const env = report.envPrefix === null ? "" : `the ${report.envPrefix}* environment variables or `;
  return `${env}the "plugins.${report.id}" section of OVATION_CONFIG_FILE`;
}

/**
 * What the server's operator should do about a plugin in this state, in words a streamer can follow,
 * or null when nothing needs fixing. The plugin's own `detail` (shown beside it) says what went
 * wrong; this says where to act (settings, network, restart).
 */
export function pluginFix(report: PluginReport): string | null {
  switch (report.status) {
    case "connected":
    case "connecting":
    case "pending":
    case "idle":
      return null;
    case "failed":
      return `Correct its settings in ${settingsPlace(report)}, then restart the server (the command "ovation plugins" shows the same status). The plugin's own message says what it refused.`;
    case "degraded":
      return `It runs with part of its features${report.detail ? `: ${report.detail}` : ""}. Check the credentials and permissions granted to it in ${settingsPlace(report)}.`;
    case "disconnected":
      return "It lost its connection and reconnects by itself. If it stays disconnected, check that this machine reaches the platform and that its credentials are still valid.";
    case "not-running":
      return "Start the server (`ovation start`).";
    default:
      return report.detail;
  }
}

/** What to do about an alert set naming platforms no loaded plugin serves. */
export function unservedFix(unserved: UnservedPlatforms): string {
  const names = unserved.platforms.join(", ");
  return `Alert set ${unserved.alert_set_id} has alerts for ${names}, which no loaded plugin serves; they are kept but never shown. Add the plugin to OVATION_PLUGINS (for example OVATION_PLUGINS=console,${unserved.platforms[0] ?? ""}) and restart, or delete those alerts from the set.`;
}
