import type { GoalBarRecords } from "@ovation/core";
import type { GoalBarRecord } from "../store/bot-modules.js";
import type { Repositories } from "../store/repositories.js";

/** The goal bars' port of @ovation/core over the server's repository (channel = the user's id). */
export function goalBarRecords(repos: Repositories): GoalBarRecords<GoalBarRecord> {
  const goalBars = repos.goalBars;
  return {
    list: (channel) => goalBars.listForUser(Number(channel)),
    get: (channel, id) => goalBars.getForUser(Number(channel), id),
    create: (channel, fields) => goalBars.create(Number(channel), fields),
    replace: (channel, id, fields) => goalBars.update(Number(channel), id, (record) => void Object.assign(record, structuredClone(fields))),
    setCurrent: (channel, id, next) => goalBars.update(Number(channel), id, (record) => void (record.current = next(record.current))),
    remove: (channel, id) => goalBars.remove(Number(channel), id),
    channels: () => repos.users.list().map((user) => String(user.id)),
    persisted: () => repos.store.persisted(),
  };
}
