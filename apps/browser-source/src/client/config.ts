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
  /** `chat`, `emotewall`: the public `.chat` rooms of the user's channels. */
  chat_rooms: string[];
  /** `events`: the latest alerts, newest first (notifysub payloads, checked when read). */
  alert_log: unknown[];
  /** `scenes`: the parts, each another source's address at a place in percent of the scene. */
  scene_parts: ScenePartView[];
  /** `queue`, `poll`: the bot module's state at start (checked by the page that reads it), or null. */
  module_state: unknown;
}

/** One part of a scene as the config gives it. */
export interface ScenePartView {
  browser_source_id: number;
  browser_source_type: string;
  browser_source_url: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

function readSceneParts(value: unknown): ScenePartView[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((raw): ScenePartView[] => {
    if (raw === null || typeof raw !== "object") return [];
    const p = raw as Record<string, unknown>;
    const num = (key: string) => (typeof p[key] === "number" && Number.isFinite(p[key]) ? (p[key] as number) : null);
    const [id, x, y, width, height] = [num("browser_source_id"), num("x"), num("y"), num("width"), num("height")];
    const url = p.browser_source_url;
    if (id === null || x === null || y === null || width === null || height === null || typeof url !== "string" || !/^https?:\/\//.test(url)) return [];
    return [{ browser_source_id: id, browser_source_type: String(p.browser_source_type ?? ""), browser_source_url: url, x, y, width, height }];
  });
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
    chat_rooms: Array.isArray(record.chat_rooms) ? record.chat_rooms.filter((r): r is string => typeof r === "string" && r.endsWith(".chat")) : [],
    alert_log: Array.isArray(record.alert_log) ? record.alert_log : [],
    scene_parts: readSceneParts(record.scene_parts),
    module_state: record.module_state ?? null,
  };
}
