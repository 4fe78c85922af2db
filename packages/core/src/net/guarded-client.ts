import { lookup as dnsLookup } from "node:dns/promises";
import type { LookupAddress } from "node:dns";
import { Agent, buildConnector, type Dispatcher } from "undici";
import { definedKeys } from "../objects.js";
import { AddressPolicy, ipLiteralOf } from "./address-policy.js";
import { NET_ERROR_CODES, NetError } from "./net-error.js";
import { SlidingWindowLimiter } from "./rate-limit.js";
import { signOvationRequest } from "./signature.js";

/** undici's own timeouts, which fire at the same limit as the request's timer. */
const UNDICI_TIMEOUTS: ReadonlySet<string> = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"]);

/** Defaults of {@link GuardedHttpClient}; documented in docs/outbound.md. */
export const OUTBOUND_DEFAULTS = {
  timeoutMs: 5_000,
  maxResponseBytes: 64 * 1024,
  maxRedirects: 3,
  callsPerMinute: 15,
  maxRequestBytes: 64 * 1024,
  userAgent: "OvationBot/0.1 (+template call)",
} as const;

/** Resolves a host name to every address it has (injectable for tests; default `dns.lookup`). */
export type HostResolver = (hostname: string) => Promise<readonly LookupAddress[]>;

/** Options of {@link GuardedHttpClient}. */
export interface GuardedHttpClientOptions {
  /** Host names, IPs and CIDRs that may be reached although not public (see `AddressPolicy`). */
  allow?: readonly string[];
  /** Deadline of one call, redirects included (default 5000 ms). */
  timeoutMs?: number;
  /** Largest response body read, in bytes (default 64 KiB). */
  maxResponseBytes?: number;
  /** Redirects followed, each re-checked (default 3). */
  maxRedirects?: number;
  /** Calls per channel in any 60 s window (default 15). */
  callsPerMinute?: number;
  /** Clock for the rate limit and the signature timestamp (default `Date.now`). */
  now?: () => number;
  /** DNS resolver (default `dns.lookup` with `all: true`). */
  resolve?: HostResolver;
  /** `User-Agent` header sent. */
  userAgent?: string;
  /** The embedding server's own ports, never reachable on this machine unless named (see `AddressPolicyOptions.selfPorts`). */
  selfPorts?: () => readonly number[];
}

/** The port a URL connects to. */
function portOf(url: URL): number {
  return url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

/** One outbound call made for a template of `channel`. */
export interface GuardedRequest {
  /** The channel the call is counted against (rate limit). */
  channel: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** The user's secret: the call carries `X-Ovation-Timestamp` and `X-Ovation-Signature`. */
  signingSecret: string;
}

/** The final reply of a call (after redirects). */
export interface GuardedResponse {
  status: number;
  /** The URL that answered (differs from the request's after redirects). */
  url: string;
  /** The `content-type` header, lowercased, or "" when absent. */
  contentType: string;
  body: string;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const defaultResolve: HostResolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

type LookupCallback = (err: Error | null, address: string | LookupAddress[], family?: number) => void;

/** One HTTP exchange of a call: the status, the reply's headers and its whole body (capped). */
interface Exchange {
  status: number;
  /** Lowercased names; a repeated header is an array. */
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Thrown into the exchange in flight when a call's deadline passes. */
class DeadlineExceeded extends Error {}

/**
 * The deadline of one call, redirects included: one timer that stops whichever exchange is in
 * flight when it fires (and any started after it).
 */
class Deadline {
  expired = false;
  #stop: ((error: Error) => void) | null = null;
  readonly #timer: NodeJS.Timeout;

  constructor(ms: number) {
    this.#timer = setTimeout(() => {
      this.expired = true;
      this.#stop?.(new DeadlineExceeded(`deadline of ${ms} ms passed`));
    }, ms);
  }

  /** The exchange in flight (null between exchanges); stopped at once when the deadline has passed. */
  watch(stop: ((error: Error) => void) | null): void {
    this.#stop = stop;
    if (stop !== null && this.expired) stop(new DeadlineExceeded("deadline passed"));
  }

  clear(): void {
    clearTimeout(this.#timer);
  }
}

function findNetError(error: unknown): NetError | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === "object"; depth++) {
    if (current instanceof NetError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * The one HTTP client of template calls (`proxy_pass`, `json`). It allows http/https only; refuses
 * non-public addresses (IP literals checked after WHATWG canonicalisation, names checked on the
 * addresses DNS gives, inside the connection's own lookup so the checked address is the one
 * connected to: no rebinding); follows redirects by hand, re-checking each; enforces a deadline,
 * a response size cap and a per-channel rate limit; and signs every request.
 */
export class GuardedHttpClient {
  /** The address policy in force (allowlist included). */
  readonly policy: AddressPolicy;
  readonly #agent: Agent;
  readonly #limiter: SlidingWindowLimiter;
  readonly #timeoutMs: number;
  readonly #maxResponseBytes: number;
  readonly #maxRedirects: number;
  readonly #now: () => number;
  readonly #userAgent: string;
  readonly #resolve: HostResolver;

  /** Throws `RangeError` listing every option out of bounds, or `TypeError` for a bad allowlist entry. */
  constructor(options: GuardedHttpClientOptions = {}) {
    const problems = [
      ["timeoutMs", options.timeoutMs, 1, 60_000],
      ["maxResponseBytes", options.maxResponseBytes, 1, 16 * 1024 * 1024],
      ["maxRedirects", options.maxRedirects, 0, 10],
      ["callsPerMinute", options.callsPerMinute, 1, Number.MAX_SAFE_INTEGER],
    ]
      .filter(([, value, min, max]) => value !== undefined && !(Number.isInteger(value) && (value as number) >= (min as number) && (value as number) <= (max as number)))
      .map(([name, value, min, max]) => `${String(name)} must be an integer from ${String(min)} to ${String(max)}, got ${String(value)}`);
    if (problems.length > 0) throw new RangeError(`GuardedHttpClient options: ${problems.join("; ")}`);
    this.policy = new AddressPolicy({ allow: options.allow ?? [], ...definedKeys({ selfPorts: options.selfPorts }) });
    this.#timeoutMs = options.timeoutMs ?? OUTBOUND_DEFAULTS.timeoutMs;
    this.#maxResponseBytes = options.maxResponseBytes ?? OUTBOUND_DEFAULTS.maxResponseBytes;
    this.#maxRedirects = options.maxRedirects ?? OUTBOUND_DEFAULTS.maxRedirects;
    this.#now = options.now ?? Date.now;
    this.#userAgent = options.userAgent ?? OUTBOUND_DEFAULTS.userAgent;
    this.#resolve = options.resolve ?? defaultResolve;
    this.#limiter = new SlidingWindowLimiter({
      limit: options.callsPerMinute ?? OUTBOUND_DEFAULTS.callsPerMinute,
      windowMs: 60_000,
      now: this.#now,
    });
    // One connector per port, so the lookup that checks each resolved address also knows the port.
    const connectors = new Map<number, buildConnector.connector>();
    const connectorFor = (port: number): buildConnector.connector => {
      let connector = connectors.get(port);
      if (connector === undefined) {
        connector = buildConnector({ lookup: (hostname: string, opts: { all?: boolean }, cb: LookupCallback) => this.#lookup(hostname, port, opts, cb), timeout: this.#timeoutMs });
        connectors.set(port, connector);
      }
      return connector;
    };
    this.#agent = new Agent({
      connect: (opts, callback) => connectorFor(Number(opts.port) || (opts.protocol === "https:" ? 443 : 80))(opts, callback),
      headersTimeout: this.#timeoutMs,
      bodyTimeout: this.#timeoutMs,
      keepAliveTimeout: 4_000,
      connections: 32,
    });
  }

  /** Parses and checks a URL without calling it: scheme, then the address when it is an IP literal. */
  checkUrl(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new NetError(NET_ERROR_CODES.url, `refused: "${raw.slice(0, 100)}" is not a valid URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new NetError(NET_ERROR_CODES.scheme, `refused: ${url.protocol} URLs are not allowed, only http: and https:`, {
        details: { protocol: url.protocol },
      });
    }
    if (url.username !== "" || url.password !== "") {
      throw new NetError(NET_ERROR_CODES.url, "refused: URLs with credentials (user:password@) are not allowed");
    }
    const literal = ipLiteralOf(url);
    if (literal !== null) {
      this.policy.assertAddressAllowed(literal, literal);
      this.policy.assertNotSelf(literal, literal, portOf(url));
    }
    return url;
  }

  /** Makes one call. Throws `NetError` on every refusal and failure; a non-2xx status is returned, not thrown. */
  async request(req: GuardedRequest): Promise<GuardedResponse> {
    let url = this.checkUrl(req.url);
    if (!this.#limiter.tryTake(req.channel)) {
      const seconds = Math.ceil(this.#limiter.retryAfterMs(req.channel) / 1000);
      throw new NetError(NET_ERROR_CODES.rateLimited, `refused: this channel made too many outbound calls; try again in ${seconds} s`, {
        details: { channel: req.channel, retryAfterSeconds: seconds },
      });
    }
    const deadline = new Deadline(this.#timeoutMs);
    let method = req.method.toUpperCase();
    let body = req.body;
    try {
      for (let hop = 0; ; hop++) {
        const signature = signOvationRequest({ secret: req.signingSecret, body: body ?? "", nowMs: this.#now() });
        const headers: Record<string, string> = { "user-agent": this.#userAgent, ...req.headers, ...signature };
        if (body === undefined) delete headers["content-type"];
        const res = await this.#exchange(url, method, headers, body, deadline);
        if (REDIRECT_STATUSES.has(res.status)) {
          const location = res.headers.location;
          if (typeof location !== "string" || location === "") {
            throw new NetError(NET_ERROR_CODES.redirects, `redirect ${res.status} from ${url.host} without a Location header`);
          }
          if (hop >= this.#maxRedirects) {
            throw new NetError(NET_ERROR_CODES.redirects, `refused: more than ${this.#maxRedirects} redirects`, {
              details: { maxRedirects: this.#maxRedirects },
            });
          }
          url = this.checkUrl(new URL(location, url).href);
          if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) {
            method = "GET";
            body = undefined;
          }
          continue;
        }
        const contentType = String(res.headers["content-type"] ?? "").toLowerCase();
        return { status: res.status, url: url.href, contentType, body: res.body };
      }
    } catch (error) {
      const netError = findNetError(error);
      if (netError !== null) throw netError;
      // The call's deadline and undici's header/body/connect timeouts share one limit: whichever
      // fires first, the answer did not come in time.
      const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
      if (deadline.expired || (typeof code === "string" && UNDICI_TIMEOUTS.has(code))) {
        throw new NetError(NET_ERROR_CODES.timeout, `no answer from ${url.host} within ${this.#timeoutMs} ms`, {
          details: { timeoutMs: this.#timeoutMs },
        });
      }
      const reason = error instanceof Error ? ((error as { code?: string }).code ?? error.message) : String(error);
      throw new NetError(NET_ERROR_CODES.transport, `request to ${url.host} failed: ${reason}`, { cause: error });
    } finally {
      deadline.clear();
    }
  }

  /** Closes the keep-alive connections. */
  async close(): Promise<void> {
    await this.#agent.close();
  }

  /**
   * One request and its whole reply, through undici's dispatch API: the reply is gathered into
   * buffers as it arrives (no stream, no abort signal per call) and cut as soon as it passes the cap,
   * checked against `Content-Length` first. Redirects' bodies count against the cap and are dropped.
   */
  #exchange(url: URL, method: string, headers: Record<string, string>, body: string | undefined, deadline: Deadline): Promise<Exchange> {
    const cap = this.#maxResponseBytes;
    return new Promise<Exchange>((resolve, reject) => {
      let controller: Dispatcher.DispatchController | null = null;
      /** True once the promise is settled: later callbacks change nothing. */
      let settled = false;
      let failure: Error | null = null;
      let status = 0;
      let replyHeaders: Exchange["headers"] = {};
      let keep = true;
      const chunks: Buffer[] = [];
      let size = 0;
      const fail = (error: Error): void => {
        if (settled) return;
        settled = true;
        failure = error;
        deadline.watch(null);
        reject(error);
        if (controller !== null && !controller.aborted) controller.abort(error);
      };
      const tooLarge = (): NetError =>
        new NetError(NET_ERROR_CODES.tooLarge, `refused: the reply is larger than ${cap} bytes`, { details: { maxResponseBytes: cap } });
      deadline.watch(fail);
      if (settled) return;
      this.#agent.dispatch(
        { origin: url.origin, path: `${url.pathname}${url.search}`, method: method as Dispatcher.HttpMethod, headers, body: body ?? null },
        {
          onRequestStart(started) {
            controller = started;
            if (failure !== null) started.abort(failure);
          },
          onResponseStart(_controller, statusCode, responseHeaders) {
            if (statusCode < 200 || settled) return; // 1xx: the reply follows
            status = statusCode;
            replyHeaders = responseHeaders;
            keep = !REDIRECT_STATUSES.has(statusCode);
            const length = responseHeaders["content-length"];
            if (typeof length === "string" && Number(length) > cap) fail(tooLarge());
          },
          onResponseData(_controller, chunk) {
            if (settled) return;
            size += chunk.length;
            if (size > cap) fail(tooLarge());
            else if (keep) chunks.push(chunk);
          },
          onResponseEnd() {
            if (settled) return;
            settled = true;
            deadline.watch(null);
            resolve({ status, headers: replyHeaders, body: keep ? Buffer.concat(chunks, size).toString("utf8") : "" });
          },
          onResponseError(_controller, error) {
            fail(error);
          },
        },
      );
    });
  }

  #lookup(hostname: string, port: number, opts: { all?: boolean }, callback: LookupCallback): void {
    this.#resolve(hostname).then(
      (addresses) => {
        const permitted: LookupAddress[] = [];
        let refusal: NetError | null = null;
        for (const entry of addresses) {
          try {
            this.policy.assertAddressAllowed(entry.address, hostname);
            this.policy.assertNotSelf(entry.address, hostname, port);
            permitted.push(entry);
          } catch (error) {
            refusal ??= error as NetError;
          }
        }
        const first = permitted[0];
        if (first === undefined) {
          callback(refusal ?? new NetError(NET_ERROR_CODES.dns, `${hostname} has no address`, { details: { hostname } }), "");
          return;
        }
        if (opts.all === true) callback(null, permitted);
        else callback(null, first.address, first.family);
      },
      (error: unknown) => {
        callback(new NetError(NET_ERROR_CODES.dns, `${hostname} does not resolve`, { cause: error, details: { hostname } }), "");
      },
    );
  }
}
