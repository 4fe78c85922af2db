import { AlertLogRepository } from "./alert-log.js";
import { AlertSetsRepository } from "./alert-sets.js";
import { BotStateRepository, GoalBarsRepository, TimersRepository } from "./bot-modules.js";
import { BrowserSourceJoinsRepository } from "./browser-source-joins.js";
import { BrowserSourcesRepository } from "./browser-sources.js";
import { CommandsRepository } from "./commands.js";
import { ConnectionsRepository } from "./connections.js";
import { CountersService } from "./counters.js";
import { StoreKeyValueStore } from "./key-value.js";
import { ManagersRepository } from "./managers.js";
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
  /** When each browser source first joined (the reconnection backlog's lower bound). */
  readonly browserSourceJoins: BrowserSourceJoinsRepository;
  readonly alertSets: AlertSetsRepository;
  readonly commands: CommandsRepository;
  readonly alertLog: AlertLogRepository;
  readonly queueState: QueueStateRepository;
  readonly signingSecrets: SigningSecretsRepository;
  /** The command templates' per-channel key-value store (`db`, `inc`, `dec`, `set`, points). */
  readonly kv: StoreKeyValueStore;
  /** Counters, kept in `kv` (the `counters` table templates reach). */
  readonly counters: CountersService;
  readonly timers: TimersRepository;
  readonly goalBars: GoalBarsRepository;
  readonly botState: BotStateRepository;
  /** Roles streamers grant other accounts on their channel, and the audit log of those accounts' writes. */
  readonly managers: ManagersRepository;
}

/** Builds the repositories of a store. Every new user gets the default alert set (see `UsersRepository`). */
export function createRepositories(store: Store): Repositories {
  const alertSets = new AlertSetsRepository(store);
  const kv = new StoreKeyValueStore(store);
  const browserSources = new BrowserSourcesRepository(store);
  return Object.freeze({
    store,
    users: new UsersRepository(store, (user) => void alertSets.createDefault(user.id, true)),
    connections: new ConnectionsRepository(store),
    tokens: new PersonalAccessTokensRepository(store),
    browserSources,
    browserSourceJoins: new BrowserSourceJoinsRepository(store, browserSources),
    alertSets,
    commands: new CommandsRepository(store),
    alertLog: new AlertLogRepository(store),
    queueState: new QueueStateRepository(store),
    signingSecrets: new SigningSecretsRepository(store),
    kv,
    counters: new CountersService(kv),
    timers: new TimersRepository(store),
    goalBars: new GoalBarsRepository(store),
    botState: new BotStateRepository(store),
    managers: new ManagersRepository(store),
  });
}
