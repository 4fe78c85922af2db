import type * as api from "@ovation/core/api";
import { botUser, callOnly } from "./schema-types.js";
import type { BotCallOptions, In, Out } from "./schema-types.js";
import type { HttpClient } from "./transport.js";

/** Routes of {@link commandsApi}. */
export const COMMANDS_ROUTES = {
  list: { method: "GET", path: "/v1/bots/{user}/commands" },
  create: { method: "POST", path: "/v1/bots/{user}/commands" },
  test: { method: "POST", path: "/v1/bots/{user}/commands/test" },
  get: { method: "GET", path: "/v1/bots/{user}/commands/{id}" },
  replace: { method: "PUT", path: "/v1/bots/{user}/commands/{id}" },
  delete: { method: "DELETE", path: "/v1/bots/{user}/commands/{id}" },
  signingSecret: { method: "GET", path: "/v1/bots/{user}/signing-secret" },
  rotateSigningSecret: { method: "POST", path: "/v1/bots/{user}/signing-secret/rotate" },
} as const;

/** A command as the API returns it. */
export type BotCommandView = Out<typeof api.commandViewSchema>;
/** The body of create/replace. */
export type BotCommandInput = In<typeof api.botCommandSchema>;
/** The answer of a dry run. */
export type CommandTestResult = Out<typeof api.commandTestResultSchema>;
/** The secret that signs the bot's outbound calls. */
export type SigningSecret = Out<typeof api.signingSecretSchema>;

/** Bot commands (scope `chatbot:manage:commands`); the signing secret needs an EAT when the account has an email. */
export function commandsApi(http: HttpClient) {
  return {
    /** `GET /v1/bots/{user}/commands`. */
    list: (options?: BotCallOptions) => http.call<{ data: BotCommandView[] }>(COMMANDS_ROUTES.list, { ...callOnly(options), params: botUser(options) }),
    /** `POST /v1/bots/{user}/commands`. A template error is a 422 naming `response` with line and column. */
    create: (body: BotCommandInput, options?: BotCallOptions) => http.call<BotCommandView>(COMMANDS_ROUTES.create, { ...callOnly(options), params: botUser(options), body }),
    /** `POST /v1/bots/{user}/commands/test`: dry-run a chat message against the commands. */
    test: (body: In<typeof api.commandTestBodySchema>, options?: BotCallOptions) => http.call<CommandTestResult>(COMMANDS_ROUTES.test, { ...callOnly(options), params: botUser(options), body }),
    /** `GET /v1/bots/{user}/commands/{id}`. */
    get: (id: number, options?: BotCallOptions) => http.call<BotCommandView>(COMMANDS_ROUTES.get, { ...callOnly(options), params: { ...botUser(options), id } }),
    /** `PUT /v1/bots/{user}/commands/{id}`. */
    replace: (id: number, body: BotCommandInput, options?: BotCallOptions) =>
      http.call<BotCommandView>(COMMANDS_ROUTES.replace, { ...callOnly(options), params: { ...botUser(options), id }, body }),
    /** `DELETE /v1/bots/{user}/commands/{id}`. */
    delete: (id: number, options?: BotCallOptions) => http.call<void>(COMMANDS_ROUTES.delete, { ...callOnly(options), params: { ...botUser(options), id } }),
    /** `GET /v1/bots/{user}/signing-secret` (EAT). */
    signingSecret: (options?: BotCallOptions) => http.call<SigningSecret>(COMMANDS_ROUTES.signingSecret, { ...callOnly(options), params: botUser(options) }),
    /** `POST /v1/bots/{user}/signing-secret/rotate` (EAT). */
    rotateSigningSecret: (options?: BotCallOptions) => http.call<SigningSecret>(COMMANDS_ROUTES.rotateSigningSecret, { ...callOnly(options), params: botUser(options) }),
  };
}

/** The API of {@link commandsApi}. */
export type CommandsApi = ReturnType<typeof commandsApi>;
