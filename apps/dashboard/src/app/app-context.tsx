import { createContext } from "preact";
import { useContext, useEffect, useState } from "preact/hooks";
import type { DashboardBootstrap } from "../bootstrap.js";
import type { Session, SessionState } from "./auth/session.js";

/** What every page can reach: the server's bootstrap and the signed-in session. */
export interface AppServices {
  boot: DashboardBootstrap;
  session: Session;
}

/** Provided once by the app root. */
export const AppContext = createContext<AppServices | null>(null);

/** The app's services; only inside the app root. */
export function useApp(): AppServices {
  const services = useContext(AppContext);
  if (services === null) throw new Error("useApp() outside the dashboard app");
  return services;
}

/** The session state, re-rendering on sign-in, refresh, expiry and sign-out. */
export function useSessionState(): SessionState {
  const { session } = useApp();
  const [state, setState] = useState(session.state);
  useEffect(() => session.subscribe(setState), [session]);
  return state;
}
