import { createOvationClient } from "@ovation/client/http";
import type { OvationClient } from "@ovation/client/http";
import type { Session } from "./auth/session.js";

/** Asks the user for an EAT (set by the EAT prompt once it is mounted). */
export interface EatBridge {
  ask: () => Promise<string | null>;
}

async function isEatProblem(response: Response): Promise<boolean> {
  try {
    const body = (await response.clone().json()) as { code?: unknown };
    return typeof body.code === "string" && body.code.includes("_EAT_");
  } catch {
    return false;
  }
}

/**
 * A fetch that handles a 401 for the session: a token the server no longer takes is refreshed once
 * and the call repeated; when that fails the session ends ("Your session expired"). A 401 that asks
 * for an EAT is left to the client, which opens the EAT prompt.
 */
function sessionFetch(session: Session): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.status !== 401 || (await isEatProblem(response))) return response;
    const headers = new Headers(init?.headers);
    if (!headers.has("authorization")) return response;
    const token = await session.unauthorized();
    headers.set("authorization", `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
}

/** The API clients of a signed-in tab: the API host (`/v1`) and the identity host (`/api`), same token. */
export function createClients(session: Session, eat: EatBridge): { api: OvationClient; identity: OvationClient } {
  const common = {
    token: () => session.accessToken(),
    onEatRequired: () => eat.ask(),
    fetch: sessionFetch(session),
  };
  const identityBase = session.boot.identity_api.replace(/\/api$/, "");
  const api = createOvationClient({ baseUrl: session.boot.api_base, ...common });
  return { api, identity: identityBase === session.boot.api_base ? api : createOvationClient({ baseUrl: identityBase, ...common }) };
}
