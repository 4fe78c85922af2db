import type { BrowserSourceBootstrap } from "../bootstrap.js";

/** What `GET {api_base}/browser-source/api/<token>/config` answers (docs/contracts.md). */
export interface BrowserSourceConfig {
  browser_source: Record<string, unknown>;
  /** The room to join, `<user_uuid>.ovation.<user_id>`. */
  room: string;
  /** The AE4 alert set of this source, or null. */
  alert_set: Record<string, unknown> | null;
  /** The goal bar of a `goalbars` source (configuration and progress), or null. */
  goal_bar: Record<string, unknown> | null;
  /** The overlay switches (`!visuals`, `!effects`, `!sounds`); absent means all on. */
  overlay: Record<string, unknown> | null;
}

/** A config request that failed; `status` is the HTTP status, 0 for a network failure or timeout. */
export class ConfigFetchError extends Error {
  override readonly name = "ConfigFetchError";
  readonly status: number;

  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

/** How long one config request may take. */
export const CONFIG_TIMEOUT_MS = 10_000;

/** Fetches and checks this browser source's configuration. */
export async function fetchConfig(bootstrap: BrowserSourceBootstrap, fetcher: typeof fetch = fetch): Promise<BrowserSourceConfig> {
  const url = `${bootstrap.api_base}/browser-source/api/${encodeURIComponent(bootstrap.access_token)}/config`;
  let response: Response;
  try {
    response = await fetcher(url, {
      headers: { Accept: "application/json" },
      credentials: "omit",
      cache: "no-store",
      signal: AbortSignal.timeout(CONFIG_TIMEOUT_MS),
    });
  } catch (error) {
    throw new ConfigFetchError(`config request failed: ${error instanceof Error ? error.message : String(error)}`, 0);
  }
  if (!response.ok) throw new ConfigFetchError(`config request answered ${response.status}`, response.status);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ConfigFetchError("config is not JSON", response.status);
  }
  return parseConfig(body);
}

/** Checks the config body. @throws ConfigFetchError naming the bad field. */
export function parseConfig(body: unknown): BrowserSourceConfig {
  if (body === null || typeof body !== "object") throw new ConfigFetchError("config must be an object", 200);
  const record = body as Record<string, unknown>;
  if (typeof record.room !== "string" || record.room === "") throw new ConfigFetchError("config.room must be a non-empty string", 200);
  const source = record.browser_source;
  if (source === null || typeof source !== "object") throw new ConfigFetchError("config.browser_source must be an object", 200);
  const alertSet = record.alert_set ?? null;
  if (alertSet !== null && (typeof alertSet !== "object" || Array.isArray(alertSet))) {
    throw new ConfigFetchError("config.alert_set must be an object or null", 200);
  }
  const goalBar = record.goal_bar ?? null;
  if (goalBar !== null && (typeof goalBar !== "object" || Array.isArray(goalBar))) throw new ConfigFetchError("config.goal_bar must be an object or null", 200);
  const overlay = record.overlay ?? null;
  if (overlay !== null && (typeof overlay !== "object" || Array.isArray(overlay))) throw new ConfigFetchError("config.overlay must be an object or null", 200);
  return {
    browser_source: source as Record<string, unknown>,
    room: record.room,
    alert_set: alertSet as Record<string, unknown> | null,
    goal_bar: goalBar as Record<string, unknown> | null,
    overlay: overlay as Record<string, unknown> | null,
  };
}
