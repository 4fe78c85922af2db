import { ALERT_SETS_ROUTES } from "./alert-sets.js";
import { ALERTS_ROUTES } from "./alerts.js";
import { BROWSER_SOURCES_ROUTES } from "./browser-sources.js";
import { GOAL_BARS_ROUTES } from "./goal-bars.js";
import { MEDIA_ROUTES } from "./media.js";
import { SIMULATOR_ROUTES } from "./simulator.js";
import { TTS_ROUTES } from "./tts.js";
import type { HttpClient, Route } from "./transport.js";

/** The `/v1/bots/{user}/...` form of a route that acts on the caller: `/v1/goal-bars/{id}` gives `/v1/bots/{user}/goal-bars/{id}`. */
export function channelRoute(route: Route): Route {
  return { method: route.method, path: `/v1/bots/{user}/${route.path.slice("/v1/".length)}` };
}

/**
 * The routes of the alert, alert-set, media, browser-source, goal-bar, simulator and read-aloud
 * families that also have a channel form (not the public catalog, nor the pages' own token routes).
 */
const OWN_ROUTES: readonly Route[] = [
  ...Object.values(ALERTS_ROUTES).filter((route) => route !== ALERTS_ROUTES.catalog),
  ...Object.values(ALERT_SETS_ROUTES),
  ...Object.values(MEDIA_ROUTES),
  ...[BROWSER_SOURCES_ROUTES.list, BROWSER_SOURCES_ROUTES.generate, BROWSER_SOURCES_ROUTES.regenerate, BROWSER_SOURCES_ROUTES.saveSettings],
  ...Object.values(GOAL_BARS_ROUTES),
  ...Object.values(SIMULATOR_ROUTES),
  ...Object.values(TTS_ROUTES),
];

/** Every channel form, by `METHOD path` of the caller's route (the coverage test lists them with the rest). */
export function channelRoutes(): Record<string, Route> {
  return Object.fromEntries(OWN_ROUTES.map((route) => [`${route.method} ${route.path}`, channelRoute(route)]));
}

/**
 * An `HttpClient` acting on the channel `user` (`@me`, your id, or the id of a channel you manage):
 * a route of the caller that has a channel form goes to `/v1/bots/{user}/...`, and the `{user}`
 * of a bot route given as `@me` (the families' default) becomes `user`. Build any family on it:
 * `alertSetsApi(channelHttp(client.http, 17)).list()`.
 */
export function channelHttp(http: HttpClient, user: number | string): HttpClient {
  const bound = Object.create(http) as HttpClient;
  bound.call = (route, parts = {}) => {
    if (OWN_ROUTES.includes(route)) return http.call(channelRoute(route), { ...parts, params: { ...parts.params, user: String(user) } });
    const params = parts.params === undefined ? undefined : Object.fromEntries(Object.entries(parts.params).map(([key, value]) => [key, key === "user" && value === "@me" ? String(user) : value]));
    return http.call(route, params === undefined ? parts : { ...parts, params });
  };
  return bound;
}
