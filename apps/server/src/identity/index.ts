/**
 * The identity module: OAuth 2.0 authorization server, accounts, platform login, Elevated Access
 * Tokens. Deployable on its own (`createIdentityModule`) or inside the Ovation host, where
 * `identityPlugin` (apps/server/src/identity-plugin.ts) joins it to the host's services.
 */
export { createIdentityModule } from "./module.js";
export type { IdentityModule, IdentityModuleOptions } from "./module.js";
export { ClientRegistry, CLIENTS_FILE } from "./clients.js";
export type { CreatedClient } from "./clients.js";
export { IdentityStore } from "./identity-store.js";
export { loadIdentityEnv, DEFAULT_LIFETIMES } from "./identity-env.js";
export type { IdentityEnvConfig, IdentityLifetimes } from "./identity-env.js";
export { createEatValidator } from "./eat/remote.js";
export { IntrospectionTokenVerifier } from "./oidc/introspection-verifier.js";
export type { IntrospectionVerifierOptions } from "./oidc/introspection-verifier.js";
export type { EatValidator } from "./eat/remote.js";
export { EAT_HEADER } from "./eat/guard.js";
export type { ElevatedAccessTokenView } from "./eat/service.js";
export { SCOPES, WILDCARD_SCOPE } from "./scope-descriptions.js";
export { SESSION_COOKIE } from "./session.js";
export { IDENTITY_ERROR_CODES, IdentityError } from "./identity-errors.js";
export { platformName, unservedStatus } from "./connection-status.js";
export type { ConnectionStatusView } from "./context.js";
export { hashPassword, passwordProblems } from "./accounts/passwords.js";
export type { AttemptCounter } from "./eat/service.js";
export type { TimeLogFactory, TimeLogStore } from "./failure-backoff.js";
export type { PendingEntries } from "./platforms/pending.js";
export type { OAuthClientRecord } from "./identity-store.js";
