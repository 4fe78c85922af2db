import type { Session } from "./auth/session.js";
import type { EatApi } from "./ui/eat-prompt.js";

async function post<T>(session: Session, url: string, body?: unknown): Promise<T> {
  const token = await session.accessToken();
  const response = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const payload = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) throw Object.assign(new Error(typeof payload.message === "string" ? payload.message : `HTTP ${response.status}`), { errors: payload.errors });
  return payload as T;
}

/** The EAT prompt's two identity calls, as the signed-in user. */
export function eatApi(session: Session): EatApi {
  const base = session.boot.identity_api;
  return {
    request: () => post<{ sent_to: string }>(session, `${base}/eat/request-verification`),
    verify: (code) => post<{ token: string; expires_at: string }>(session, `${base}/eat/verify-code`, { code }),
  };
}
