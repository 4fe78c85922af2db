import type { ChannelTokens, PluginCredentials, PluginKeyValue, PluginRouteHandler, PluginRoutes } from "../../plugins/factory.js";

/** A declared plugin route as {@link memoryPluginServices} keeps it. */
export interface MemoryRoute {
  method: "GET" | "POST";
  path: string;
  handler: PluginRouteHandler;
}

/**
 * The plugin API 1.1 services of a factory context kept in memory, for a plugin's own tests and
 * for hosts without a store: tokens in a map (with `saved` counting write-backs), routes collected
 * in `routes`, claims expiring on the clock. `refresh` is not available (no token endpoint).
 */
export function memoryPluginServices(id: string, app: { client_id: string; client_secret: string | null } | null = null) {
  const tokens = new Map<number, ChannelTokens>();
  const routes: MemoryRoute[] = [];
  const claims = new Map<string, number>();
  let saved = 0;
  const credentials: PluginCredentials = {
    tokens: (connectionId) => {
      const t = tokens.get(connectionId);
      return t ? { ...t, scopes: [...t.scopes] } : null;
    },
    save: (connectionId, t) => {
      saved++;
      tokens.set(connectionId, { ...t, scopes: [...t.scopes] });
    },
    refresh: () => Promise.reject(new Error("memoryPluginServices: no token endpoint to refresh at")),
    app: () => app,
  };
  const pluginRoutes: PluginRoutes = {
    add: (route) => {
      routes.push({ method: route.method, path: route.path, handler: route.handler });
      return `/v1/platforms/${id}${route.path}`;
    },
  };
  const state: PluginKeyValue = {
    claim: (key, ttlMs) => {
      const now = Date.now();
      const until = claims.get(key);
      if (until !== undefined && until > now) return Promise.resolve(false);
      claims.set(key, now + ttlMs);
      return Promise.resolve(true);
    },
  };
  return {
    credentials,
    routes: pluginRoutes,
    state,
    /** The stored tokens, by connection id (set them before serving a channel). */
    tokens,
    declared: routes,
    get saved(): number {
      return saved;
    },
  };
}
