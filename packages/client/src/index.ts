/**
 * @ovation/client: the typed HTTP client (`@ovation/client/http`), the socket helper
 * (`@ovation/client/socket`) and the error classes (`@ovation/client/errors`). Import a subpath
 * to keep a bundle to what it uses.
 */
export * from "./http/index.js";
export * from "./socket/index.js";
