import type { TimerRecords } from "@ovation/core";
import type { TimersRepository } from "../store/bot-modules.js";

/**
 * The timers module's storage port on this server: the timers repository, one document of records
 * per user (channel = the user id as a string). The timer routes of @ovation/core go through it.
 */
export function timerRecords(repository: TimersRepository): TimerRecords {
  return {
    list: (channel) => repository.listForUser(Number(channel)),
    get: (channel, id) => repository.getForUser(Number(channel), id),
    create: (channel, fields) => repository.create(Number(channel), fields),
    update: (channel, id, fields) => repository.update(Number(channel), id, (record) => Object.assign(record, structuredClone(fields))),
    remove: (channel, id) => repository.remove(Number(channel), id),
  };
}
