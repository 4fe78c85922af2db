import { inMemoryTimeLogs } from "./failure-backoff.js";
import type { TimeLogFactory } from "./failure-backoff.js";
import type { AttemptCounter } from "./eat/service.js";
import type { Server } from "node:http";
import type { FastifyError, FastifyInstance } from "fastify";
import type Provider from "oidc-provider";
import type { Logger } from "pino";
import { definedKeys } from "@ovation/core";
import type { TokenVerifier } from "../auth/principal.js";
import type { ConnectionsRepository } from "../store/connections.js";
import type { OidcArtifactStorage } from "../store/oidc-artifact-storage.js";
import type { PersonalAccessTokensRepository } from "../store/personal-access-tokens.js";
import type { UsersRepository } from "../store/users.js";
import { ClientRegistry } from "./clients.js";
import { systemClock } from "./clock.js";
import type { Clock } from "./clock.js";
import { loadIdentityEnv } from "./identity-env.js";
import type { IdentityEnvConfig, IdentityLifetimes } from "./identity-env.js";
import type { IdentityContext } from "./context.js";
import { EatService } from "./eat/service.js";
import type { ElevatedAccessTokenView } from "./eat/service.js";
import { IdentityError } from "./identity-errors.js";
import { apiRoutes } from "./http/api-routes.js";
import { BearerAuthenticator } from "./bearer-auth.js";
import { allowRegisteredOrigins } from "./http/cors.js";
import type { ForeignTokenVerifier } from "./bearer-auth.js";
import { oauthRoutes } from "./http/oauth-routes.js";
import { openidRoutes } from "./http/openid-routes.js";
import { pageRoutes } from "./http/page-routes.js";
import { securityRoutes } from "./http/security-routes.js";
import { loadOrCreateKeys, loadOrCreateSharedKeys } from "./keys.js";
import { createMailer } from "./mail/mailer.js";
import type { Mailer } from "./mail/mailer.js";
import { TotpService } from "./mfa/totp.js";
import { WebAuthnService, securityKeyUrlProblem } from "./mfa/webauthn.js";
import { publicJwks } from "./oidc/access-token-jwt.js";
import { FileOidcStorage } from "./oidc/file-storage.js";
import { createOAuthProvider } from "./oidc/oauth-provider.js";
import { OAuthAccessTokenVerifier } from "./oidc/token-verifier.js";
import { FilePendingEntries } from "./platforms/pending.js";
import type { PendingEntries } from "./platforms/pending.js";
import { platformRoutes } from "./http/platform-routes.js";
import { defaultPlatformSettings } from "./platforms/settings.js";
import type { PlatformOAuthSettings } from "./platforms/settings.js";
import { SessionService } from "./session.js";
import { IdentityStore } from "./identity-store.js";
import type { OAuthClientRecord, SharedIdentityHost } from "./identity-store.js";

/** How often a node sharing its store copies new clients of its own file into the shared document. */
const CLIENT_PUBLISH_MS = 2_000;

/** What the identity module is built from. */
export interface IdentityModuleOptions {
  /** Directory of `identity.json` (usually the server's data directory). */
  dataDir: string;
  users: UsersRepository;
  connections: ConnectionsRepository;
  tokens: PersonalAccessTokensRepository;
  /** Bearer tokens this module does not issue (the host's personal access tokens). */
  foreignTokens?: ForeignTokenVerifier;
  logger: Logger;
  /** Identity settings; read from `process.env` when absent. */
  env?: IdentityEnvConfig;
  /** Overrides `OVATION_ID_URL` (the identity host; `/api` and `/oauth` are below it). */
  idUrl?: string;
  /** Overrides `OVATION_SMTP_URL`. */
  smtpUrl?: string;
  lifetimes?: Partial<IdentityLifetimes>;
  /** The clock of EATs, codes, sessions and stored-artifact expiry (tests pass a fake one). */
  clock?: Clock;
  /** Trust `X-Forwarded-*` headers (behind a TLS-offloading proxy); by default when the identity URL is https. */
  trustProxy?: boolean;
  /** Platform OAuth settings; by default built from `OVATION_<PLATFORM>_CLIENT_ID`/`_SECRET`. */
  platforms?: readonly PlatformOAuthSettings[];
  /** oidc-provider artifact storage of the host's store (set when the store is PostgreSQL); else the identity file. */
  oidcStorage?: OidcArtifactStorage | undefined;
  /**
   * The host's store when several nodes share it (PostgreSQL): sessions, EATs, second factors,
   * OAuth clients and the signing keys then live there, the same on every node, instead of in the
   * data directory's files.
   */
  sharedStore?: SharedIdentityHost | undefined;
  /** Called after `DELETE /api/users/@me` deleted an account (the host revokes what it keeps for the user). */
  onAccountDeleted?: (userId: number) => void | Promise<void>;
  /** Called once an OAuth grant's tokens are revoked (the host closes the sockets opened with them). */
  onGrantRevoked?: (grantId: string) => void;
  /** How the host's bot serves a linked channel (the connection view's `status`). */
  connectionStatus?: IdentityContext["connectionStatus"];
  /** Where the sign-in, email-change and password-reset limits count (default this process's memory). */
  timeLogs?: TimeLogFactory;
  /** Where wrong verification codes are counted (default the code's record; Redis when several nodes share it). */
  eatAttempts?: AttemptCounter;
  /** Where pending platform sign-ins and links wait (default one file each under `<dataDir>/pending-sign-ins/`; Redis when several nodes share it). */
  pendingSignIns?: PendingEntries;
  /** First-party clients the host registers itself (the dashboard): never in the file, no consent page. */
  builtInClients?: readonly OAuthClientRecord[];
}

/** The identity module: a fastify plugin plus what the host needs in-process. */
export interface IdentityModule {
  /** Registers `/api/...` and `/oauth/...` on the instance it is registered on. */
  readonly plugin: (app: FastifyInstance) => Promise<void>;
  /** For the host's bearer chain: accepts OAuth access tokens issued here. */
  readonly tokenVerifier: TokenVerifier;
  /** In-process EAT check for the main API: the EAT's record when valid for this user, else null. */
  validateEat(userId: number, rawEat: string): ElevatedAccessTokenView | null;
  /** The user of a request's `Cookie` header (the identity session), for the socket handshake. */
  userOfSessionCookie(cookieHeader: string | undefined): number | null;
  /** The identity host, once known (configured, or the listening address). */
  idBase(): string;
  readonly store: IdentityStore;
  /** The registered OAuth clients (`ovation client create`). */
  readonly clients: ClientRegistry;
  readonly mailer: Mailer;
  /** Closes the mail transport. */
  close(): void;
}

function errorHandler(logger: Logger) {
  return (error: FastifyError, _request: unknown, reply: { code(n: number): { send(b: unknown): unknown }; header(name: string, value: string): unknown }) => {
    if (error instanceof IdentityError) {
      const body = error.toBody();
      // Every 429 says when to come back.
      if (error.status === 429) reply.header("retry-after", String(typeof body.retry_after === "number" ? body.retry_after : 60));
      return reply.code(error.status).send(body);
    }
    const status = typeof error.statusCode === "number" ? error.statusCode : 500;
    if (status === 429) reply.header("retry-after", "60");
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ message: error.message, code: status === 429 ? "OVATION_ERR_IDENTITY_RATE_LIMITED" : "OVATION_ERR_IDENTITY_BAD_REQUEST" });
    }
    logger.error({ err: error }, "identity request failed");
    return reply.code(500).send(new IdentityError("OVATION_ERR_IDENTITY_INTERNAL").toBody());
  };
}

/** Opens the identity store and wires the module; register `module.plugin` on the host app. */
export async function createIdentityModule(options: IdentityModuleOptions): Promise<IdentityModule> {
  const env = options.env ?? loadIdentityEnv();
  const clock = options.clock ?? systemClock;
  const logger = options.logger.child({ module: "identity" });
  const shared = options.sharedStore;
  const store = shared ? await IdentityStore.shared(shared, options.dataDir) : await IdentityStore.open(options.dataDir);
  const oidcStorage = options.oidcStorage ?? new FileOidcStorage(store);
  const clients = new ClientRegistry(options.dataDir, shared, options.builtInClients ?? []);
  const keys = shared ? await loadOrCreateSharedKeys(options.dataDir, shared) : loadOrCreateKeys(options.dataDir);
  // Clients registered in this node's file (`ovation client create`) reach the other nodes even
  // when this node gets no OAuth traffic.
  const publishClients = shared
    ? setInterval(() => {
        try {
          clients.all();
        } catch (error) {
          logger.warn({ err: error }, "could not share this node's OAuth clients");
        }
      }, CLIENT_PUBLISH_MS).unref()
    : null;
  const lifetimes: IdentityLifetimes = { ...env.lifetimes, ...options.lifetimes };
  const configured = options.idUrl ?? env.idUrl;
  const mailer = createMailer({ smtpUrl: options.smtpUrl ?? env.smtpUrl, from: env.mailFrom, logger });

  let server: Server | undefined;
  let base: string | undefined = configured?.replace(/\/+$/, "");
  const warnIfIpUrl = (url: string) => {
    const problem = securityKeyUrlProblem(url);
    if (problem !== null) logger.warn({ id_url: url }, problem);
  };
  if (base !== undefined) warnIfIpUrl(base);
  const idBase = (): string => {
    if (base !== undefined) return base;
    const address = server?.listening ? server.address() : null;
    if (address === null || typeof address === "string" || address === undefined) return "http://localhost";
    // An any-address listener is named localhost (security keys need a host name); a listener on an
    // IP keeps it, with the warning that names the fix.
    const host = address.address === "0.0.0.0" || address.address === "::" ? "localhost" : address.family === "IPv6" ? `[${address.address}]` : address.address;
    base = `http://${host}:${address.port}`;
    warnIfIpUrl(base);
    return base;
  };
  let provider: Provider | undefined;
  const getProvider = (): Provider => {
    provider ??= createOAuthProvider({ idBase: idBase(), keys, clients, users: options.users, lifetimes, clock, logger, sessions, trustProxy: options.trustProxy ?? idBase().startsWith("https://"), oidcStorage, onGrantRevoked: options.onGrantRevoked });
    return provider;
  };

  const platforms = new Map<string, PlatformOAuthSettings>();
  for (const [platform, credentials] of Object.entries(env.platformCredentials)) {
    const settings = defaultPlatformSettings(platform, credentials, env.platformEndpoints[platform]);
    if (settings) platforms.set(platform, settings);
  }
  for (const settings of options.platforms ?? []) platforms.set(settings.platform, settings);

  const eat = new EatService(store, mailer, clock, lifetimes, options.eatAttempts ?? null);
  const sessions = new SessionService(store, clock, lifetimes.session, () => idBase().startsWith("https://"));
  const ctx: IdentityContext = {
    store,
    oidcStorage,
    users: options.users,
    connections: options.connections,
    tokens: options.tokens,
    clock,
    timeLogs: options.timeLogs ?? inMemoryTimeLogs,
    logger,
    lifetimes,
    mailer,
    eat,
    sessions,
    totp: new TotpService(store, clock),
    webauthn: new WebAuthnService(store, clock, idBase),
    auth: new BearerAuthenticator(getProvider, options.foreignTokens),
    platforms,
    pending: options.pendingSignIns ?? (await FilePendingEntries.open(options.dataDir, clock)),
    clients,
    idBase,
    jwks: publicJwks(keys.signing_keys),
    provider: getProvider,
    ...definedKeys({ onAccountDeleted: options.onAccountDeleted, connectionStatus: options.connectionStatus }),
  };

  return {
    async plugin(app: FastifyInstance) {
      server = app.server;
      app.setErrorHandler(errorHandler(logger));
      await app.register(async (api) => {
        api.setErrorHandler(errorHandler(logger));
        allowRegisteredOrigins(api, clients);
        await apiRoutes(api, ctx);
        await securityRoutes(api, ctx);
      });
      await app.register(async (oauth) => {
        oauth.setErrorHandler(errorHandler(logger));
        await openidRoutes(oauth, ctx);
        await pageRoutes(oauth, ctx);
        await oauthRoutes(oauth, ctx);
        await platformRoutes(oauth, ctx);
      });
    },
    tokenVerifier: new OAuthAccessTokenVerifier(getProvider),
    validateEat: (userId, rawEat) => eat.validate(userId, rawEat),
    userOfSessionCookie: (header) => sessions.userOfCookieHeader(header),
    idBase,
    store,
    clients,
    mailer,
    close: () => {
      if (publishClients) clearInterval(publishClients);
      mailer.close();
    },
  };
}
