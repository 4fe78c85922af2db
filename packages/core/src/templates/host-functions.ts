/**
 * The functions a command template may call, implemented by the host (network, storage) and
 * exposed to the sandbox as references. Every argument arrives as copied data from the isolate;
 * every result goes back as copied data. Implementations enforce their own limits and throw an
 * `OvationError` with a clear message on refusal.
 */
export interface TemplateHostFunctions {
  /** POST `{version, event, command, args}` to `url`; the `text/plain` reply becomes the output. */
  proxy_pass(url: string): Promise<string>;
  /** Request `url` with `method`; parsed JSON, or null on any failure. */
  json(method: string, url: string): Promise<unknown>;
  /** All fields of a per-channel key-value table (`db(table).field`). */
  db(table: string): Promise<Record<string, unknown>>;
  inc(table: string, key: string, by?: number): Promise<number>;
  dec(table: string, key: string, by?: number): Promise<number>;
  set(table: string, key: string, value: unknown): Promise<unknown>;
  /** `cache(key)` reads, `cache(key, value[, ttlSeconds])` writes (default ttl one day). */
  cache(key: string, value?: unknown, ttlSeconds?: number): Promise<unknown>;
  /** Platform user lookup: {id, name, type, description, view_count} or null. */
  user(login: string): Promise<unknown>;
  /** Platform channel lookup: {id, name, url, language, title, game} or null. */
  channel(id: string): Promise<unknown>;
}
