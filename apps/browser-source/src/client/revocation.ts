import type { BrowserSourceBootstrap } from "../bootstrap.js";
import { ConfigFetchError, fetchConfig } from "./config.js";

/** True for the statuses with which the service refuses an access token. */
export function isRefusedToken(error: unknown): boolean {
  return error instanceof ConfigFetchError && (error.status === 401 || error.status === 403 || error.status === 404);
}

/** Shortest time between two token checks after socket errors. */
const CHECK_INTERVAL_MS = 30_000;

/**
 * Returns a check to run when the socket refuses the page: it asks for the config (at most every
 * 30 s) and calls `onRevoked` once when the service refuses the token, so a page whose address was
 * regenerated stops instead of reconnecting forever.
 */
export function revocationCheck(bootstrap: BrowserSourceBootstrap, onRevoked: () => void): () => void {
  let last = Number.NEGATIVE_INFINITY;
  let revoked = false;
  return () => {
    const now = Date.now();
    if (revoked || now - last < CHECK_INTERVAL_MS) return;
    last = now;
    fetchConfig(bootstrap).catch((error: unknown) => {
      if (!revoked && isRefusedToken(error)) {
        revoked = true;
        onRevoked();
      }
    });
  };
}
