import type { preHandlerAsyncHookHandler } from "fastify";
import type { Logger } from "pino";
import type { FailedAuthCounter } from "./auth/failed-auth-throttle.js";
import type { TokenVerifierChain } from "./auth/token-verifier-chain.js";
import type { SharedState } from "./redis/shared-state.js";
import type { ServerConfig } from "./config.js";
import type { BotModulesHost } from "./commands/bot-modules-host.js";
import type { CommandHost } from "./commands/command-host.js";
import type { MediaStore } from "./media/media-store.js";
import type { RealtimeGateway } from "./realtime/gateway.js";
import type { NodeRegistry } from "./redis/node-registry.js";
import type { OvationIo, SocketAuthenticator } from "./realtime/socket-types.js";
import type { Repositories } from "./store/repositories.js";
import type { SpeechService } from "./tts/index.js";

/** What the app shares with its route modules and with plugins (identity, platforms). */
export interface OvationServices {
  readonly config: ServerConfig;
  readonly repos: Repositories;
  /** Bearer-token verifiers; the identity module registers its OAuth tokens here. */
  readonly verifiers: TokenVerifierChain;
  /** Failed authentications per source and per credential (HTTP and socket handshakes share it). */
  readonly failedAuth: FailedAuthCounter;
  /** What the nodes share (Redis with `OVATION_REDIS_URL`, else this process's memory): counters, cooldowns, leases. */
  readonly shared: SharedState;
  /** Extra socket handshake authenticators (for example a session cookie); tried after tokens. */
  readonly socketAuthenticators: SocketAuthenticator[];
  readonly hub: RealtimeGateway;
  /** Alert media on disk: per-user folders and quota (`POST /v1/media`); emptied when an account is deleted. */
  readonly media: MediaStore;
  /** The bot runtime with every user's commands (channel id = user id). */
  readonly commands: CommandHost;
  /** The bot modules (timers, giveaways, auto-moderation, system commands) and goal-bar progress. */
  readonly botModules: BotModulesHost;
  readonly io: OvationIo;
  /** With Redis: the registry of live nodes (`/server-ids`); null on one node. */
  readonly nodes: NodeRegistry | null;
  readonly logger: Logger;
  /** Read-aloud alerts: the speech provider behind its cache, and the approval queue (docs/tts.md). */
  readonly speech: SpeechService;
  /** A preHandler requiring a bearer token with every one of `scopes`. */
  authenticate(...scopes: string[]): preHandlerAsyncHookHandler;
  /**
   * A preHandler (after `authenticate`) for sensitive endpoints: demands an `Elevated-Access-Token`
   * checked by the identity module, in-process or on its remote host (see http/require-eat.ts).
   */
  readonly requireEat: preHandlerAsyncHookHandler;
}

declare module "fastify" {
  interface FastifyInstance {
    /** The Ovation services of this app. */
    ovation: OvationServices;
  }
}
