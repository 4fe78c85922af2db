/**
 * @ovation/core/net: the outbound HTTP guard (address policy, rate limit, undici client) and request
 * signatures used by template calls and proxy_pass. Node only.
 */
export { AddressPolicy, ipLiteralOf } from "./address-policy.js";
export type { AddressPolicyOptions } from "./address-policy.js";
export { GuardedHttpClient, OUTBOUND_DEFAULTS } from "./guarded-client.js";
export type { GuardedHttpClientOptions, GuardedRequest, GuardedResponse, HostResolver } from "./guarded-client.js";
export { NET_ERROR_CODES, NetError } from "./net-error.js";
export type { NetErrorCode } from "./net-error.js";
export { SlidingWindowLimiter } from "./rate-limit.js";
export {
  OVATION_PROXY_PASS_VERSION,
  OVATION_SIGNATURE_HEADER,
  OVATION_TIMESTAMP_HEADER,
  signOvationRequest,
  verifyOvationSignature,
} from "./signature.js";
export type { OvationSignatureHeaders, VerifyOvationSignatureOptions } from "./signature.js";
export { JSON_CALL_METHODS, fetchJson, proxyPass } from "./template-calls.js";
export type { ProxyPassBody, TemplateCallContext } from "./template-calls.js";
