/**
 * @ovation/server: the Ovation host. `buildApp` assembles the HTTP API, browser-source pages,
 * socket.io rooms and the store; `main` is the `ovation` CLI.
 */
export { buildApp } from "./app.js";
export type { BuildAppOptions, OvationApp } from "./app.js";
export { loadConfig, ConfigError, envSchema, LOG_LEVELS } from "./config.js";
export type { ServerConfig } from "./config.js";
export { ERROR_CODES, ApiError } from "./errors.js";
export type { ErrorCode, ErrorCodeEntry, FieldErrors } from "./errors.js";
export type { OvationServices } from "./services.js";
export { TokenVerifierChain, bearerToken } from "./auth/token-verifier-chain.js";
export { hasScope } from "./auth/principal.js";
export type { Principal, TokenVerifier } from "./auth/principal.js";
export { KNOWN_SCOPES, DEFAULT_CLI_SCOPES } from "./auth/scopes.js";
export { Store } from "./store/store.js";
export type { RemoteStoreChange } from "./store/store.js";
export { createRepositories } from "./store/repositories.js";
export type { Repositories } from "./store/repositories.js";
export { UsersRepository } from "./store/users.js";
export type { NewUser, UserChanges } from "./store/users.js";
export type { UserRecord, ConnectionRecord, BrowserSourceRecord, AlertSetRecord, CommandRecord, AlertLogEntry } from "./store/records.js";
export { RealtimeGateway } from "./realtime/gateway.js";
export { EspeakSpeechProvider, HttpSpeechProvider, SpeechError, encodeWav } from "./tts/index.js";
export type { SpeechAudio, SpeechProvider } from "./tts/index.js";
export type { AlertInput, PublishResult, QueueAction } from "./realtime/gateway.js";
export { ownRoom, parseRoom, OWN_PLATFORM } from "./realtime/rooms.js";
export type { SocketAuthenticator, SocketIdentity } from "./realtime/socket-types.js";
export { main } from "./cli/index.js";
export { startServer } from "./start-server.js";
export type { RunningServer, StartServerOptions } from "./start-server.js";
export type { PlatformPluginsOptions } from "./plugins/platform-plugins.js";
export type { PluginReport } from "./plugins/plugin-reports.js";
export type { UnservedPlatforms } from "./plugins/unserved-platforms.js";
