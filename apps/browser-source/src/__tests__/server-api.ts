/** A JSON call to the server's HTTP API as one bearer token. */
export type ApiCall = <T = Record<string, unknown>>(method: string, route: string, body?: unknown) => Promise<{ status: number; body: T }>;

/** Calls `base` with `token()` (read at each call, so a test may set it after building the client). */
export function serverApi(base: () => string, token: () => string): ApiCall {
  return async <T = Record<string, unknown>>(method: string, route: string, body?: unknown) => {
    const response = await fetch(`${base()}${route}`, {
      method,
      headers: { authorization: `Bearer ${token()}`, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: (text === "" ? {} : JSON.parse(text)) as T };
  };
}
