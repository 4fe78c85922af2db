import type { ManagerRole } from "@ovation/core/api";
import { userKey } from "./per-user-extensions.js";
import type { Store } from "./store.js";
import { timestamp } from "./records.js";

/** Extension kind of a streamer's grants (`manager_grants.<streamerId>`). */
export const MANAGER_GRANTS_KIND = "manager_grants";
/** Extension kind of a streamer's audit log (`manager_audit.<streamerId>`). */
export const MANAGER_AUDIT_KIND = "manager_audit";
/** Entries kept per streamer; older ones are dropped first. */
export const MANAGER_AUDIT_LIMIT = 500;

/** A role a streamer granted to another account. */
export interface ManagerGrant {
  manager_id: number;
  role: ManagerRole;
  granted_at: string;
}

/** One audited write on a streamer's channel. */
export interface ManagerAuditRecord {
  id: number;
  actor_id: number;
  actor_name: string;
  role: string;
  action: string;
  target: string;
  status: number;
  at: string;
}

interface AuditDocument {
  next_id: number;
  entries: ManagerAuditRecord[];
}

/**
 * Managers: the roles streamers grant other accounts on their channel, and the log of what those
 * accounts changed. Each streamer's grants and log are documents of their own (files or
 * PostgreSQL, like every per-user extension), so one channel's writes never rewrite another's.
 */
export class ManagersRepository {
  constructor(private readonly store: Store) {}

  #grants(streamerId: number) {
    return this.store.extension<ManagerGrant[]>(userKey(MANAGER_GRANTS_KIND, streamerId), () => []);
  }

  #audit(streamerId: number) {
    return this.store.extension<AuditDocument>(userKey(MANAGER_AUDIT_KIND, streamerId), () => ({ next_id: 1, entries: [] }));
  }

  /** The managers of a streamer's channel. */
  list(streamerId: number): ManagerGrant[] {
    return this.#grants(streamerId).read().map((g) => ({ ...g }));
  }

  /** The role `managerId` holds on `streamerId`'s channel, or null. */
  roleOf(streamerId: number, managerId: number): ManagerRole | null {
    return this.#grants(streamerId).read().find((g) => g.manager_id === managerId)?.role ?? null;
  }

  /** Grants `role` (or changes the role held); returns the grant. */
  grant(streamerId: number, managerId: number, role: ManagerRole): ManagerGrant {
    return this.#grants(streamerId).update((grants) => {
      const existing = grants.find((g) => g.manager_id === managerId);
      if (existing) {
        existing.role = role;
        return { ...existing };
      }
      const grant: ManagerGrant = { manager_id: managerId, role, granted_at: timestamp() };
      grants.push(grant);
      return { ...grant };
    });
  }

  /** Revokes a manager; false when they held no role. */
  revoke(streamerId: number, managerId: number): boolean {
    if (this.roleOf(streamerId, managerId) === null) return false;
    return this.#grants(streamerId).update((grants) => {
      const index = grants.findIndex((g) => g.manager_id === managerId);
      if (index < 0) return false;
      grants.splice(index, 1);
      return true;
    });
  }

  /** The channels `managerId` manages, with the role held on each. */
  channelsOf(managerId: number): Array<{ streamer_id: number; grant: ManagerGrant }> {
    const prefix = `${MANAGER_GRANTS_KIND}.`;
    const found: Array<{ streamer_id: number; grant: ManagerGrant }> = [];
    for (const key of this.store.extensionKeys(prefix)) {
      const streamerId = Number(key.slice(prefix.length));
      if (!Number.isSafeInteger(streamerId)) continue;
      const grant = this.#grants(streamerId).read().find((g) => g.manager_id === managerId);
      if (grant) found.push({ streamer_id: streamerId, grant: { ...grant } });
    }
    return found.sort((a, b) => a.streamer_id - b.streamer_id);
  }

  /** Removes every grant by or to a deleted account, and the account's own audit log. */
  forgetUser(userId: number): void {
    for (const { streamer_id } of this.channelsOf(userId)) this.revoke(streamer_id, userId);
    for (const kind of [MANAGER_GRANTS_KIND, MANAGER_AUDIT_KIND]) {
      const key = userKey(kind, userId);
      if (!this.store.extensionKeys(key).includes(key)) continue;
      this.store.update((data) => void delete data.extensions[key], { extensions: [key] });
    }
  }

  /** Appends an entry to a streamer's audit log (the oldest entries go past MANAGER_AUDIT_LIMIT). */
  record(streamerId: number, entry: Omit<ManagerAuditRecord, "id" | "at">): ManagerAuditRecord {
    return this.#audit(streamerId).update((doc) => {
      const record: ManagerAuditRecord = { ...entry, id: doc.next_id, at: timestamp() };
      doc.next_id += 1;
      doc.entries.push(record);
      if (doc.entries.length > MANAGER_AUDIT_LIMIT) doc.entries.splice(0, doc.entries.length - MANAGER_AUDIT_LIMIT);
      return { ...record };
    });
  }

  /** A streamer's audit log, newest first. */
  auditLog(streamerId: number, limit = 100): ManagerAuditRecord[] {
    return this.#audit(streamerId)
      .read()
      .entries.slice(-limit)
      .reverse()
      .map((e) => ({ ...e }));
  }
}
