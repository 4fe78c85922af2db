/** The sticky-session cookie the server reads at the handshake. */
export const SERVER_ID_COOKIE = "serverid";

/**
 * The server ids a socket may name in the `serverid` cookie (`GET {url}/server-ids`, public). Behind
 * a load balancer that routes by this cookie, every request of one socket then reaches one node.
 */
export async function fetchServerIds(url: string, fetcher: typeof fetch = globalThis.fetch): Promise<string[]> {
  const response = await fetcher(`${url.replace(/\/+$/, "")}/server-ids`, { headers: { accept: "application/json" } });
  if (!response.ok) throw new Error(`GET /server-ids answered ${response.status}`);
  const ids: unknown = await response.json();
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === "string")) throw new Error("GET /server-ids did not answer a list of strings");
  return ids;
}

/** One of `ids`, chosen at random (`random` in [0, 1)); null for an empty list. */
export function chooseServerId(ids: readonly string[], random: number = Math.random()): string | null {
  if (ids.length === 0) return null;
  return ids[Math.min(ids.length - 1, Math.floor(random * ids.length))] ?? null;
}

/** The `Cookie` header value that names `serverId` (Node: sent as an extra handshake header). */
export function serverIdCookie(serverId: string): string {
  return `${SERVER_ID_COOKIE}=${encodeURIComponent(serverId)}`;
}
