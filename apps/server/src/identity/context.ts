import type { JsonWebKey } from "node:crypto";
import type Provider from "oidc-provider";
import type { Logger } from "pino";
import type { z } from "zod";
import type { connectionStatusSchema } from "@ovation/core/api";
import type { ConnectionsRepository } from "../store/connections.js";
import type { ConnectionRecord } from "../store/records.js";
import type { OidcArtifactStorage } from "../store/oidc-artifact-storage.js";
import type { PersonalAccessTokensRepository } from "../store/personal-access-tokens.js";
import type { UsersRepository } from "../store/users.js";
import type { TimeLogFactory } from "./failure-backoff.js";
import type { ClientRegistry } from "./clients.js";
import type { Clock } from "./clock.js";
import type { IdentityLifetimes } from "./identity-env.js";
import type { EatService } from "./eat/service.js";
import type { BearerAuthenticator } from "./bearer-auth.js";
import type { Mailer } from "./mail/mailer.js";
import type { PendingEntries } from "./platforms/pending.js";
import type { PlatformOAuthSettings } from "./platforms/settings.js";
import type { TotpService } from "./mfa/totp.js";
import type { WebAuthnService } from "./mfa/webauthn.js";
import type { SessionService } from "./session.js";
import type { IdentityStore } from "./identity-store.js";

/** Everything the identity routes share; built once by `createIdentityModule`. */
export interface IdentityContext {
  readonly store: IdentityStore;
  /** Where the authorization server's artifacts live (the identity file, or PostgreSQL). */
  readonly oidcStorage: OidcArtifactStorage;
  readonly users: UsersRepository;
  readonly connections: ConnectionsRepository;
  readonly tokens: PersonalAccessTokensRepository;
  readonly clock: Clock;
  /** Where the sign-in, email-change and password-reset limits count (memory, or Redis shared by every node). */
  readonly timeLogs: TimeLogFactory;
  readonly logger: Logger;
  readonly lifetimes: Readonly<IdentityLifetimes>;
  readonly mailer: Mailer;
  readonly eat: EatService;
  readonly sessions: SessionService;
  readonly totp: TotpService;
  readonly webauthn: WebAuthnService;
  readonly auth: BearerAuthenticator;
  readonly platforms: ReadonlyMap<string, PlatformOAuthSettings>;
  /** Pending platform sign-ins and links, one entry each (files, or Redis shared by every node). */
  readonly pending: PendingEntries;
  /** The registered OAuth clients. */
  readonly clients: ClientRegistry;
  /** The identity host without a trailing slash (fixed once the server listens). */
  idBase(): string;
  /** The public signing keys (`/.well-known/jwks.json`). */
  readonly jwks: { keys: JsonWebKey[] };
  /** The authorization server (built on first use, with the issuer `<idBase>/oauth`). */
  provider(): Provider;
  /** The host's hook after an account was deleted. */
  readonly onAccountDeleted?: (userId: number) => void | Promise<void>;
  /** How the host's bot serves a linked channel (default: the platform is not set up). */
  readonly connectionStatus?: (connection: ConnectionRecord) => ConnectionStatusView;
}

/** The `status` of a connection view. */
export type ConnectionStatusView = z.output<typeof connectionStatusSchema>;
