import { Store } from "./store.js";
import { timestamp } from "./records.js";
import type { CommandRecord } from "./records.js";
import type { CommandFields } from "@ovation/core";

/**
 * The writable fields of a command-shaped value (a stored record, a validated command), nothing else.
 * The commands module's routes copy the same list in core; the store keeps its own copy so a CLI
 * command that opens the store does not load the `@ovation/core` barrel.
 */
export function commandFields(source: CommandFields): CommandFields {
  return {
    command: source.command,
    command_aliases: [...source.command_aliases],
    response: source.response,
    command_regex: source.command_regex,
    permissions: source.permissions,
    price: source.price,
    send_as: source.send_as,
    enable_when: source.enable_when,
    user_cooldown: source.user_cooldown,
    global_cooldown: source.global_cooldown,
    is_visible: source.is_visible,
  };
}

/** Chat-bot commands of users. */
export class CommandsRepository {
  constructor(private readonly store: Store) {}

  /** Stores a new command. */
  create(userId: number, fields: CommandFields): CommandRecord {
    return this.store.update((data) => {
      const now = timestamp();
      const record: CommandRecord = { id: Store.nextId(data, "commands"), user_id: userId, ...structuredClone(fields), created_at: now, updated_at: now };
      data.commands.push(record);
      return structuredClone(record);
    }, { users: [userId] });
  }

  /** The command with this id owned by this user, or null. */
  getForUser(userId: number, id: number): CommandRecord | null {
    const r = this.store.data.commands.find((c) => c.id === id && c.user_id === userId);
    return r ? structuredClone(r) : null;
  }

  /** The commands of a user, by id. */
  listForUser(userId: number): CommandRecord[] {
    return this.store.data.commands.filter((c) => c.user_id === userId).map((c) => structuredClone(c));
  }

  /** Replaces the given fields; null when not found. */
  update(userId: number, id: number, changes: Partial<CommandFields>): CommandRecord | null {
    return this.store.update((data) => {
      const r = data.commands.find((c) => c.id === id && c.user_id === userId);
      if (!r) return null;
      Object.assign(r, structuredClone(changes), { updated_at: timestamp() });
      return structuredClone(r);
    }, { users: [userId] });
  }

  /** Deletes a command; false when not found. */
  remove(userId: number, id: number): boolean {
    return this.store.update((data) => {
      const index = data.commands.findIndex((c) => c.id === id && c.user_id === userId);
      if (index < 0) return false;
      data.commands.splice(index, 1);
      return true;
    }, { users: [userId] });
  }
}
