import { AlertLogRepository } from "./alert-log.js";
import { AlertSetsRepository } from "./alert-sets.js";
import { BotStateRepository, GoalBarsRepository, TimersRepository } from "./bot-modules.js";
import { BrowserSourcesRepository } from "./browser-sources.js";
import { CommandsRepository } from "./commands.js";
import { ConnectionsRepository } from "./connections.js";
import { PersonalAccessTokensRepository } from "./personal-access-tokens.js";
import { QueueStateRepository } from "./queue-state.js";
import { SigningSecretsRepository } from "./signing-secrets.js";
import type { Store } from "./store.js";
import { UsersRepository } from "./users.js";

/** One instance of every repository over one store. */
export interface Repositories {
  readonly store: Store;
  readonly users: UsersRepository;
  readonly connections: ConnectionsRepository;
  readonly tokens: PersonalAccessTokensRepository;
  readonly browserSources: BrowserSourcesRepository;
  readonly alertSets: AlertSetsRepository;
  readonly commands: CommandsRepository;
  readonly alertLog: AlertLogRepository;
  readonly queueState: QueueStateRepository;
  readonly signingSecrets: SigningSecretsRepository;
  readonly timers: TimersRepository;
  readonly goalBars: GoalBarsRepository;
  readonly botState: BotStateRepository;
}

/** Builds the repositories of a store. */
export function createRepositories(store: Store): Repositories {
  return Object.freeze({
    store,
    users: new UsersRepository(store),
    connections: new ConnectionsRepository(store),
    tokens: new PersonalAccessTokensRepository(store),
    browserSources: new BrowserSourcesRepository(store),
    alertSets: new AlertSetsRepository(store),
    commands: new CommandsRepository(store),
    alertLog: new AlertLogRepository(store),
    queueState: new QueueStateRepository(store),
    signingSecrets: new SigningSecretsRepository(store),
    timers: new TimersRepository(store),
    goalBars: new GoalBarsRepository(store),
    botState: new BotStateRepository(store),
  });
}
