import { accountApi } from "./account.js";
import { alertSetsApi } from "./alert-sets.js";
import { alertsApi } from "./alerts.js";
import { browserSourcesApi } from "./browser-sources.js";
import { ttsApi } from "./tts.js";
import { commandsApi } from "./commands.js";
import { countersApi } from "./counters.js";
import { eatApi } from "./eat.js";
import { giveawaysApi } from "./giveaways.js";
import { pollsApi } from "./polls.js";
import { queueApi } from "./queue.js";
import { shoutoutsApi } from "./shoutouts.js";
import { goalBarsApi } from "./goal-bars.js";
import { managersApi } from "./managers.js";
import { mediaApi } from "./media.js";
import { moderationApi } from "./moderation.js";
import { pluginsApi } from "./plugins.js";
import { pointsApi } from "./points.js";
import { quotesApi } from "./quotes.js";
import { securityApi } from "./security.js";
import { serviceApi } from "./service.js";
import { simulatorApi } from "./simulator.js";
import { systemCommandsApi } from "./system-commands.js";
import { timersApi } from "./timers.js";
import { tokensApi } from "./tokens.js";
import { HttpClient } from "./transport.js";
import type { HttpClientOptions } from "./transport.js";
import { usersApi } from "./users.js";

/**
 * Every endpoint family of the server on one object. For the smallest bundle, build only the
 * families you use: `const alerts = alertsApi(new HttpClient(options))`. To act on a channel you
 * manage, build the families on `channelHttp(client.http, channelId)` (see channel.ts).
 */
export function createOvationClient(options: HttpClientOptions) {
  const http = new HttpClient(options);
  return {
    http,
    service: serviceApi(http),
    users: usersApi(http),
    alerts: alertsApi(http),
    alertSets: alertSetsApi(http),
    media: mediaApi(http),
    browserSources: browserSourcesApi(http),
    commands: commandsApi(http),
    counters: countersApi(http),
    timers: timersApi(http),
    giveaways: giveawaysApi(http),
    queue: queueApi(http),
    polls: pollsApi(http),
    shoutouts: shoutoutsApi(http),
    moderation: moderationApi(http),
    points: pointsApi(http),
    quotes: quotesApi(http),
    systemCommands: systemCommandsApi(http),
    goalBars: goalBarsApi(http),
    plugins: pluginsApi(http),
    simulator: simulatorApi(http),
    managers: managersApi(http),
    account: accountApi(http),
    tokens: tokensApi(http),
    eat: eatApi(http),
    security: securityApi(http),
    tts: ttsApi(http),
  };
}

/** The client made by {@link createOvationClient}. */
export type OvationClient = ReturnType<typeof createOvationClient>;
