import { errorClassFor } from "../errors.js";
import type { ErrorCodeOf } from "../errors.js";

/** Why an outbound template call was refused or failed; each maps to one `OVATION_ERR_NET_*` code. */
export const NET_ERROR_CODES = {
  /** The URL does not parse. */
  url: "OVATION_ERR_NET_URL",
  /** Only http: and https: are allowed. */
  scheme: "OVATION_ERR_NET_SCHEME",
  /** The host is (or resolves to) a loopback, private, link-local... address that is not allowlisted. */
  address: "OVATION_ERR_NET_ADDRESS_REFUSED",
  /** The host name does not resolve. */
  dns: "OVATION_ERR_NET_DNS",
  /** The channel made more outbound calls this minute than allowed. */
  rateLimited: "OVATION_ERR_NET_RATE_LIMITED",
  /** More redirects than allowed, or a redirect without a usable Location. */
  redirects: "OVATION_ERR_NET_REDIRECTS",
  /** No complete answer within the time limit. */
  timeout: "OVATION_ERR_NET_TIMEOUT",
  /** The response body is larger than the cap. */
  tooLarge: "OVATION_ERR_NET_TOO_LARGE",
  /** The reply has a status outside 200-299. */
  status: "OVATION_ERR_NET_STATUS",
  /** proxy_pass: the reply is not text/plain. */
  contentType: "OVATION_ERR_NET_CONTENT_TYPE",
  /** The request failed at the transport level (connection refused, reset...). */
  transport: "OVATION_ERR_NET_TRANSPORT",
  /** The method of json(method, url) is not one of the allowed methods. */
  method: "OVATION_ERR_NET_METHOD",
} as const;

/** One of the `OVATION_ERR_NET_*` codes. */
export type NetErrorCode = ErrorCodeOf<typeof NET_ERROR_CODES>;

/**
 * An outbound template call was refused by policy (scheme, address, rate limit) or failed
 * (timeout, size, status, content type). The message is short and safe to show a streamer.
 */
export class NetError extends errorClassFor("NetError", NET_ERROR_CODES) {
  /** True for refusals by policy, which a template should see as an error rather than a null result. */
  get isRefusal(): boolean {
    return (
      this.code === NET_ERROR_CODES.url ||
      this.code === NET_ERROR_CODES.scheme ||
      this.code === NET_ERROR_CODES.address ||
      this.code === NET_ERROR_CODES.rateLimited ||
      this.code === NET_ERROR_CODES.method
    );
  }
}
