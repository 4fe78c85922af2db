import { createContext } from "preact";
import { useContext, useEffect, useState } from "preact/hooks";
import type { DashboardBootstrap } from "../bootstrap.js";
import type { OvationClient } from "@ovation/client/http";
import type { Session, SessionState } from "./auth/session.js";

/** What every page can reach: the server's bootstrap, the signed-in session and the API clients. */
export interface AppServices {
  boot: DashboardBootstrap;
  session: Session;
  /** `@ovation/client` on the API host (`/v1`...), as the signed-in user; EAT prompts and expiry handled. */
  api: OvationClient;
  /** `@ovation/client` on the identity host (`/api/...`: account, tokens, security, EAT); the same object when identity is local. */
  identity: OvationClient;
}

/** Provided once by the app root. */
export const AppContext = createContext<AppServices | null>(null);

/** The app's services; only inside the app root. */
export function useApp(): AppServices {
  const services = useContext(AppContext);
  if (services === null) throw new Error("useApp() outside the dashboard app");
  return services;
}

/** The API client (`useApi().alertSets.list()`); identity calls (`/api/...`) go through `useApp().identity`. */
export function useApi(): OvationClient {
  return useApp().api;
}

/** The session state, re-rendering on sign-in, refresh, expiry and sign-out. */
export function useSessionState(): SessionState {
  const { session } = useApp();
  const [state, setState] = useState(session.state);
  useEffect(() => session.subscribe(setState), [session]);
  return state;
}
