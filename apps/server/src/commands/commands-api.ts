import type { CustomCommandsApi } from "@ovation/core";
import { ApiError } from "../errors.js";
import { dryRunChatEvent } from "./dry-run-event.js";
import { commandFields } from "../store/commands.js";
import type { Repositories } from "../store/repositories.js";
import { USER_CAPS } from "../store/user-caps.js";
import type { CommandHost } from "./command-host.js";

/**
 * The server's part of the commands and counters API (whose routes the core's commands module
 * declares): the commands repository and the signing secrets by user id (channel = the user's id),
 * the per-user cap, the command host's reload after a change, and the chat message of a dry run in
 * the user's channel.
 * `countersChanged` moves the user's counter goal bars, once the store has the change (`persisted`).
 */
export function commandsApi(repos: Repositories, host: CommandHost, countersChanged: CustomCommandsApi["countersChanged"]): CustomCommandsApi {
  return {
    records: {
      list: (channel) => repos.commands.listForUser(Number(channel)),
      get: (channel, id) => repos.commands.getForUser(Number(channel), id),
      create: (channel, fields) => repos.commands.create(Number(channel), commandFields(fields)),
      update: (channel, id, fields) => repos.commands.update(Number(channel), id, commandFields(fields)),
      remove: (channel, id) => repos.commands.remove(Number(channel), id),
    },
    signingSecrets: {
      get: (channel) => repos.signingSecrets.get(Number(channel)),
      rotate: (channel) => repos.signingSecrets.rotate(Number(channel)),
    },
    maxCommands: USER_CAPS.commands,
    reload: (channel) => host.reload(Number(channel)),
    dryRunEvent: (channel, message, event) => {
      const user = repos.users.get(Number(channel));
      if (!user) throw new ApiError("OVATION_ERR_AUTH_UNAUTHENTICATED");
      return dryRunChatEvent(repos, user, message, event);
    },
    countersChanged,
    persisted: () => repos.store.persisted(),
  };
}
