import { ACCOUNT_ROUTES } from "./account.js";
import { ALERT_SETS_ROUTES } from "./alert-sets.js";
import { ALERTS_ROUTES } from "./alerts.js";
import { BROWSER_SOURCES_ROUTES } from "./browser-sources.js";
import { channelRoutes } from "./channel.js";
import { COMMANDS_ROUTES } from "./commands.js";
import { COUNTERS_ROUTES } from "./counters.js";
import { EAT_ROUTES } from "./eat.js";
import { GIVEAWAYS_ROUTES } from "./giveaways.js";
import { POLLS_ROUTES } from "./polls.js";
import { QUEUE_ROUTES } from "./queue.js";
import { SHOUTOUTS_ROUTES } from "./shoutouts.js";
import { GOAL_BARS_ROUTES } from "./goal-bars.js";
import { MANAGERS_ROUTES } from "./managers.js";
import { MEDIA_ROUTES } from "./media.js";
import { MODERATION_ROUTES } from "./moderation.js";
import { PLUGINS_ROUTES } from "./plugins.js";
import { POINTS_ROUTES } from "./points.js";
import { QUOTES_ROUTES } from "./quotes.js";
import { SECURITY_ROUTES } from "./security.js";
import { SERVICE_ROUTES } from "./service.js";
import { SIMULATOR_ROUTES } from "./simulator.js";
import { SYSTEM_COMMANDS_ROUTES } from "./system-commands.js";
import { TIMERS_ROUTES } from "./timers.js";
import { TOKENS_ROUTES } from "./tokens.js";
import { TTS_ROUTES } from "./tts.js";
import type { Route } from "./transport.js";
import { USERS_ROUTES } from "./users.js";

/** Every route the client calls, by family (the coverage test compares it with the server's /openapi.json). */
export function allRoutes(): Record<string, Readonly<Record<string, Route>>> {
  return {
    service: SERVICE_ROUTES,
    users: USERS_ROUTES,
    alerts: ALERTS_ROUTES,
    alertSets: ALERT_SETS_ROUTES,
    media: MEDIA_ROUTES,
    browserSources: BROWSER_SOURCES_ROUTES,
    commands: COMMANDS_ROUTES,
    counters: COUNTERS_ROUTES,
    timers: TIMERS_ROUTES,
    giveaways: GIVEAWAYS_ROUTES,
    queue: QUEUE_ROUTES,
    polls: POLLS_ROUTES,
    shoutouts: SHOUTOUTS_ROUTES,
    moderation: MODERATION_ROUTES,
    points: POINTS_ROUTES,
    quotes: QUOTES_ROUTES,
    systemCommands: SYSTEM_COMMANDS_ROUTES,
    goalBars: GOAL_BARS_ROUTES,
    plugins: PLUGINS_ROUTES,
    simulator: SIMULATOR_ROUTES,
    managers: MANAGERS_ROUTES,
    account: ACCOUNT_ROUTES,
    tokens: TOKENS_ROUTES,
    eat: EAT_ROUTES,
    security: SECURITY_ROUTES,
    tts: TTS_ROUTES,
    channel: channelRoutes(),
  };
}
