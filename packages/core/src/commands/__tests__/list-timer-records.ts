import { timerSchema } from "../modules/timers/timer-record.js";
import type { Timer, TimerInput } from "../modules/timers/timer-record.js";
import type { StoredTimer, TimerRecords } from "../modules/timers/timer-routes.js";

/** An embedder's timers: records in a list, as its own storage would keep them (ids from 1). */
export class ListTimerRecords implements TimerRecords {
  readonly records: (StoredTimer & { channel: string })[] = [];
  #next = 1;

  constructor(channel = "chan-1", inputs: readonly TimerInput[] = []) {
    for (const input of inputs) this.create(channel, timerSchema.parse(input));
  }

  list(channel: string) {
    return this.records.filter((r) => r.channel === channel);
  }

  get(channel: string, id: number) {
    return this.list(channel).find((r) => r.id === id) ?? null;
  }

  create(channel: string, fields: Timer) {
    const record = { ...structuredClone(fields), id: this.#next++, channel, created_at: "2026-11-23T12:00:00Z", updated_at: "2026-11-23T12:00:00Z" };
    this.records.push(record);
    return record;
  }

  update(channel: string, id: number, fields: Timer) {
    const index = this.records.findIndex((r) => r.channel === channel && r.id === id);
    const record = this.records[index];
    if (record === undefined) return null;
    this.records[index] = { ...record, ...structuredClone(fields), updated_at: "2026-11-23T13:00:00Z" };
    return this.records[index];
  }

  remove(channel: string, id: number) {
    const index = this.records.findIndex((r) => r.channel === channel && r.id === id);
    if (index < 0) return false;
    this.records.splice(index, 1);
    return true;
  }
}
