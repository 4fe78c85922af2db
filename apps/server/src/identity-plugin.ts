import type { FastifyInstance } from "fastify";
import { definedKeys } from "@ovation/core";
import { createIdentityModule, unservedStatus } from "./identity/index.js";
import type { IdentityModule, IdentityModuleOptions } from "./identity/index.js";
import { revokeUserAccess } from "./revoke-user.js";

/** Options of the host plugin: everything the module takes except what the host's services give. */
export type IdentityPluginOptions = Partial<Omit<IdentityModuleOptions, "users" | "connections" | "tokens" | "logger" | "onAccountDeleted" | "connectionStatus" | "onGrantRevoked">> & {
  /** Receives the module once built (tests, CLI). */
  onReady?: (module: IdentityModule) => void;
};

/**
 * The identity module as a plugin of the Ovation host (`buildApp({ plugins: [identityPlugin()] })`):
 * uses the host's users, connections and personal access tokens, registers its OAuth access tokens
 * in the host's bearer chain and its session cookie as a socket handshake authenticator, and
 * serves `/api/...` and `/oauth/...`.
 */
export function identityPlugin(options: IdentityPluginOptions = {}): (app: FastifyInstance) => Promise<void> {
  return async function identity(app: FastifyInstance): Promise<void> {
    const services = app.ovation;
    const { onReady, ...rest } = options;
    const module = await createIdentityModule({
      dataDir: services.config.dataDir,
      users: services.repos.users,
      connections: services.repos.connections,
      tokens: services.repos.tokens,
      foreignTokens: services.verifiers,
      logger: services.logger,
      oidcStorage: services.repos.store.oidcStorage ?? undefined,
      sharedStore: services.repos.store.shared ? services.repos.store : undefined,
      onAccountDeleted: (userId) => revokeUserAccess(services, userId),
      // The platform plugins are registered after identity: asked when a view is built.
      connectionStatus: (connection) => (app.hasDecorator("connectionStatus") ? app.connectionStatus(connection) : unservedStatus(connection.platform)),
      onGrantRevoked: (grantId) => services.hub.disconnectCredential({ grantId }),
      ...definedKeys({ timeLogs: services.shared.timeLogs, eatAttempts: services.shared.eatAttempts, pendingSignIns: services.shared.pendingSignIns }),
      ...rest,
    });
    services.verifiers.register(module.tokenVerifier);
    services.socketAuthenticators.push((handshake) => {
      const userId = module.userOfSessionCookie(handshake.headers.cookie);
      return userId === null ? null : { kind: "session", userId };
    });
    app.addHook("onClose", async () => module.close());
    await module.plugin(app);
    onReady?.(module);
  };
}
