import { OvationEatRequiredError, OvationNetworkError, errorFor } from "../errors.js";

/** An HTTP method the API uses. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** One endpoint: method and path template (`{name}` marks a path parameter, as in /openapi.json). */
export interface Route {
  readonly method: HttpMethod;
  readonly path: string;
}

/** A value, or a function that gives it (called before every request, so a refreshed token is used). */
export type Provider<T> = T | (() => T | Promise<T>);

/** How the client reaches the server. */
export interface HttpClientOptions {
  /** The server's base URL, for example `http://127.0.0.1:8080` (a trailing slash is ignored). */
  baseUrl: string;
  /** The bearer token (personal access token or OAuth access token); null/undefined sends none. */
  token?: Provider<string | null | undefined>;
  /**
   * Called when a call fails with {@link OvationEatRequiredError} and no `eat` was given for it:
   * return an Elevated Access Token to repeat the call once with it, or null to let the error through.
   * A dashboard asks the user for the mailed code here.
   */
  onEatRequired?: (error: OvationEatRequiredError) => Promise<string | null>;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** `credentials` of every fetch (browsers; `include` sends cookies to another origin). */
  credentials?: RequestCredentials;
}

/** Options of one call. */
export interface CallOptions {
  /** The `Elevated-Access-Token` of a sensitive call (see docs/identity.md). */
  eat?: string;
  /** Aborts the request. */
  signal?: AbortSignal;
  /** Extra headers of this call. */
  headers?: Record<string, string>;
}

/** What one request carries. */
export interface RequestParts extends CallOptions {
  params?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON body (objects, arrays), a `URLSearchParams` sent as a form, or bytes (`Blob`, `ArrayBuffer`, `Uint8Array`) sent as they are with the `content-type` of `headers`. */
  body?: unknown;
  /** `text` reads the answer as text (HTML pages), `bytes` as a Uint8Array (audio); default JSON (204 gives undefined). */
  as?: "json" | "text" | "bytes";
}

/** The header that carries an Elevated Access Token. */
export const EAT_HEADER = "Elevated-Access-Token";

/** The path of `route` with its `{name}` parameters filled in (URL-encoded). */
export function fillPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/\{([A-Za-z_]+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`path parameter ${name} of ${path} is missing`);
    return encodeURIComponent(String(value));
  });
}

async function provided<T>(value: Provider<T> | undefined): Promise<T | undefined> {
  return typeof value === "function" ? await (value as () => T | Promise<T>)() : value;
}

/**
 * Sends requests to an Ovation server and turns non-2xx answers into the typed errors of
 * `@ovation/client/errors`. The resource APIs (`alertSetsApi`, ...) are built on one of these.
 */
export class HttpClient {
  readonly baseUrl: string;
  readonly #options: HttpClientOptions;

  constructor(options: HttpClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.#options = options;
  }

  /** Calls `route` and resolves with its parsed answer (typed by the resource API that calls it). */
  async call<T>(route: Route, parts: RequestParts = {}): Promise<T> {
    try {
      return await this.#send<T>(route, parts);
    } catch (error) {
      const ask = this.#options.onEatRequired;
      if (!(error instanceof OvationEatRequiredError) || ask === undefined || parts.eat !== undefined) throw error;
      const eat = await ask(error);
      if (eat === null) throw error;
      return this.#send<T>(route, { ...parts, eat });
    }
  }

  /** The absolute URL of `route` with `params` and `query`. */
  url(route: Route, parts: Pick<RequestParts, "params" | "query"> = {}): string {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(parts.query ?? {})) if (value !== undefined) search.set(key, String(value));
    const query = search.toString();
    return `${this.baseUrl}${fillPath(route.path, parts.params)}${query === "" ? "" : `?${query}`}`;
  }

  async #send<T>(route: Route, parts: RequestParts): Promise<T> {
    const url = this.url(route, parts);
    const headers: Record<string, string> = { accept: "application/json", ...this.#options.headers, ...parts.headers };
    const token = await provided(this.#options.token);
    if (token) headers["authorization"] = `Bearer ${token}`;
    if (parts.eat !== undefined) headers[EAT_HEADER] = parts.eat;
    let body: string | URLSearchParams | Blob | ArrayBuffer | Uint8Array | undefined;
    if (parts.body instanceof URLSearchParams || parts.body instanceof Blob || parts.body instanceof ArrayBuffer || parts.body instanceof Uint8Array) body = parts.body;
    else if (parts.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(parts.body);
    }
    const init: RequestInit = { method: route.method, headers };
    if (body !== undefined) init.body = body as BodyInit;
    if (parts.signal !== undefined) init.signal = parts.signal;
    if (this.#options.credentials !== undefined) init.credentials = this.#options.credentials;
    const request = { method: route.method, url };
    let response: Response;
    try {
      response = await (this.#options.fetch ?? globalThis.fetch)(url, init);
    } catch (error) {
      throw new OvationNetworkError(request, error);
    }
    // Audio and other binary answers are read as bytes (reading them as text would mangle them).
    if (parts.as === "bytes" && response.ok) return new Uint8Array(await response.arrayBuffer()) as T;
    const text = await response.text();
    const json = (response.headers.get("content-type") ?? "").includes("json");
    let parsed: unknown = text;
    if (json && text !== "") {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    if (!response.ok) throw errorFor(response.status, parsed, request, response.headers.get("retry-after"));
    if (parts.as === "text") return text as T;
    return (text === "" ? undefined : parsed) as T;
  }
}
