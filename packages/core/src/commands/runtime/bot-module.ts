import type { ZodType } from "zod";
import { OvationError } from "../../errors.js";
import type { ChatEvent } from "../../chat/event.js";
import type { SendAs } from "../../plugins/contract.js";
import type { KeyValueStore } from "../key-value-store.js";
import type { PlatformAction, PlatformActionResult } from "../../plugins/platform-actions.js";
import type { BotLanguage } from "./bot-language.js";

/**
 * The bot runtime's module contract. A chat line, an alert and the 15 s tick go through every
 * registered {@link BotModule} in a fixed order (see {@link BotRuntime}); a module answers, acts
 * through its {@link BotModuleContext}, keeps its data in the channel's key-value store and may
 * serve API routes the host mounts under `/v1/`. Channel = the streamer's user id as a string.
 */

/** One answer to send back where a chat line came from (the plugin host's `HostAction`). */
export interface BotAnswer {
  text: string;
  /** `say`, `reply`, `action`, `announce`. */
  send_as: string;
  /** Message id to reply to; defaults to the triggering message for `reply`. */
  reply_to?: string | null;
}

/** A chat line as a module sees it. */
export interface BotChatLine {
  readonly event: ChatEvent;
  /** The platform plugin the line came through (answers go back through it). */
  readonly plugin: string;
  /** `event.channel.id`: the streamer's user id. */
  readonly channel: string;
}

/**
 * What a module does with a chat line. `handled: true` ends the line's way: later modules and
 * the custom commands do not see it (a moderation verdict, a giveaway keyword, `!points`).
 */
export interface BotChatResult {
  handled: boolean;
  answers?: readonly BotAnswer[];
}

/** A platform notification (follow, subscriber, cheer, tip, raid...) as a module sees it. */
export interface BotAlert {
  readonly channel: string;
  /** The alert type of the catalog: `follow`, `subscriber`, `cheer`, `donation`, `raid`... */
  readonly type: string;
  readonly platform: string;
  /** The viewer's id on the platform, when the notification names one. */
  readonly platformUserId: string | null;
  readonly username: string | null;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * A platform's own action a module may ask for (Twitch shoutouts and polls). `channel_info` reads a
 * user's channel on the platform (answers `data` {user_id, login, display_name, category, title, url});
 * `poll_start` answers `data.poll_id`; `poll_end` and `poll_results` answer `data` {poll_id, status,
 * choices: [{title, votes}]} (status `running` or `ended`).
 */


/** What the host gives every module. */
export interface BotModuleContext {
  /** The channel's key-value store; a module names its tables after itself (`queue`, `quotes`...). */
  readonly store: KeyValueStore;
  /** Clock in milliseconds (tests move it). */
  now(): number;
  /** The channel's bot language (`!lang`), for the module's messages. */
  language(channel: string): BotLanguage;
  /** Whether the channel is live on any platform. */
  isLive(channel: string): boolean;
  /**
   * Says `text` on every platform channel of the streamer, or on `platform` only; `sendAs` is the
   * plugin's `send_as` (default `say`; timers post as `action` or `announce` too).
   */
  announce(channel: string, text: string, platform?: string, sendAs?: SendAs): Promise<void>;
  /** Asks the platform plugin of `platform` in this channel for its own action. */
  platformAction(channel: string, platform: string, action: PlatformAction): Promise<PlatformActionResult>;
  /** Tells the channel's browser sources about a change (`event` on the user's room). */
  publish(channel: string, event: string, payload: unknown): void;
  readonly log: BotModuleLog;
  /**
   * The Ovation account a viewer's platform account is connected to (so one viewer is one person
   * across platforms), or null: not connected, or the host does not link accounts (then absent).
   */
  linkedAccount?(platform: string, platformUserId: string): number | null;
  /** The title and category of the streamer's channel on `platform` now (the platform's lookups); null when unknown. */
  streamInfo?(channel: string, platform: string, platformChannelId: string): Promise<{ title: string; game: string } | null>;
}

/** The host's logger as modules use it (pino-shaped). */
export interface BotModuleLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** A request to a module's API route, after the host checked the token, its scope and the user. */
export interface BotRouteRequest {
  /** The streamer whose data the route touches. */
  readonly channel: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string | undefined>>;
  readonly body: unknown;
  /** The same context the module's chat, alert and tick hooks get (its store, clock...). */
  readonly context: BotModuleContext;
}

/**
 * An API route of a module, mounted by the host at `/v1/bots/{user}/<path>` behind a bearer token
 * with `scope` (a streamer's managers reach it when their role's scopes include `scope`). The host
 * validates `params`, `query` and `body` with their zod schemas (422 naming each field), lists the
 * route in the OpenAPI document, and answers a thrown {@link BotRouteError} with its status and code.
 */
export interface BotModuleRoute {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Below `/v1/bots/{user}/`, with `:name` parameters: `queue`, `quotes/:id`. */
  readonly path: string;
  /** The token scope it needs (`chatbot:manage:queue`...; listed in the host's scopes). */
  readonly scope: string;
  /** One line for the OpenAPI document. */
  readonly summary: string;
  readonly description?: string;
  /** The `:name` parameters of `path` (strings in, whatever the schema makes of them out). */
  readonly params?: ZodType;
  readonly query?: ZodType;
  readonly body?: ZodType;
  /** The success answer's schema; with status 204 the handler's result is ignored. */
  readonly response?: ZodType;
  /** The success status (default 200). */
  readonly status?: 200 | 201 | 204;
  /** The route's OpenAPI tag (default `bot <module name>`): goal bars keep `goal bars`; `counters`, whose routes the `commands` module serves. */
  readonly tag?: string;
  /**
   * Also served at `/v1/<path>` acting on the caller's own channel (goal bars keep the reference
   * service's `/v1/goal-bars`); the `/v1/bots/{user}/<path>` form stays.
   */
  readonly callerPath?: boolean;
  /** The name of the `{user}` path parameter (default `user`): the counters API says `{bot}`, as the reference does. */
  readonly userParam?: string;
  /**
   * `owner-elevated`: the channel's owner only (never a manager), with an elevated access token when
   * the host asks for one (the bot's signing secret). By default the scope and a manager's role decide.
   */
  readonly access?: "owner-elevated";
  /**
   * The statuses of the {@link BotRouteError}s `handle` throws (404 for an unknown id, 409 for a
   * state conflict, 422 for checks beyond the schemas...), listed in the OpenAPI document with the
   * ones the host derives itself: 401/403/429 (auth), 422 (params/query/body), 400 (an unreadable
   * JSON body), 503 (a change the store could not write; owner-elevated: the identity host).
   */
  readonly errors?: readonly BotRouteError["status"][];
  /**
   * The route changes nothing though its method is not GET (a dry run): its answer does not wait
   * for the store, so it never answers the store's 503.
   */
  readonly readOnly?: boolean;
  /** `ctx` is the runtime's context: the same store, clock and outputs the module's chat side uses. */
  handle(request: BotRouteRequest): Promise<unknown> | unknown;
}

/**
 * An error a module route answers with: `status`, a stable `code` and a message (422: field errors).
 * Non-empty `details` are answered too (a template error's `{field, line, column}`). 503: a change
 * the store could not write (`storedOrRouteError`).
 */
export class BotRouteError extends OvationError {
  override readonly name = "BotRouteError";

  constructor(
    readonly status: 400 | 403 | 404 | 409 | 422 | 429 | 503,
    code: string,
    message: string,
    readonly errors?: Readonly<Record<string, string[]>>,
    details?: Record<string, unknown>,
  ) {
    super(code, message, details === undefined ? {} : { details });
  }
}

/**
 * Where a module runs on a chat line:
 * - `guard`: before everything; may stop the line (auto-moderation);
 * - `observe`: sees every line that passed the guards; never answers (timers' line counts, points per message);
 * - `command`: in registration order; the first that handles the line ends its way (giveaway keyword,
 *   system commands, engagement commands, then the custom commands last).
 */
export type BotModuleStage = "guard" | "observe" | "command";

/** A bot module: timers, giveaways, moderation, system commands, points, queue, quotes, polls... */
export interface BotModule {
  /** Lowercase `a-z0-9-`, unique in the runtime. */
  readonly name: string;
  readonly stage: BotModuleStage;
  /** A chat line of one of the streamer's channels. */
  onChat?(line: BotChatLine, ctx: BotModuleContext): Promise<BotChatResult | null> | BotChatResult | null;
  /** A platform notification of the streamer (after it reached the alert log). */
  onAlert?(alert: BotAlert, ctx: BotModuleContext): Promise<void> | void;
  /** Every 15 s (timers, points per minute watched, poll ends). */
  tick?(ctx: BotModuleContext): Promise<void> | void;
  /** Loads or reloads a streamer's data (start, a change by another node). */
  load?(channel: string, ctx: BotModuleContext): Promise<void> | void;
  /** Drops a streamer's data from memory (account deleted). */
  forget?(channel: string): void;
  /**
   * Another node changed the streamer's key-value store (`ctx.store`): what the module keeps of it in
   * memory (settings) is stale and is read again when next needed.
   */
  storeChanged?(channel: string): void;
  /** API routes the host mounts under `/v1/bots/{user}/`. */
  readonly routes?: readonly BotModuleRoute[];
  /**
   * The browser source kinds this module feeds (`queue`, `poll`), each with the state a source of
   * that kind starts from (the config's `module_state`); later changes come as `bot-module` events.
   */
  readonly sources?: Readonly<Record<string, (channel: string, ctx: BotModuleContext) => Promise<unknown> | unknown>>;
}

export type { PlatformAction, PlatformActionResult };
