import { randomUUID } from "node:crypto";
import { sha256Hex, constantTimeEqual } from "../crypto/secrets.js";
import { Store } from "./store.js";
import { timestamp } from "./records.js";
import type { BrowserSourceRecord, BrowserSourceType } from "./records.js";

/** Browser sources. One record per user, type and identifier; its access token is part of its URL. */
export class BrowserSourcesRepository {
  /** sha256(access_token) -> record id; keyed by hash so a lookup's timing says nothing about a token. */
  #index: Map<string, number> | null = null;

  constructor(private readonly store: Store) {
    // Another node may have regenerated a token (same number of sources): look again.
    store.onRemoteChange(({ documents }) => {
      if (documents.some((key) => key.startsWith("user:"))) this.#index = null;
    });
  }

  #lookup(): Map<string, number> {
    if (!this.#index || this.#index.size !== this.store.data.browser_sources.length) {
      this.#index = new Map(this.store.data.browser_sources.map((b) => [sha256Hex(b.access_token), b.id]));
    }
    return this.#index;
  }

  /** The existing record for this user, type and identifier, or a new one with a fresh token. */
  findOrCreate(userId: number, type: BrowserSourceType, identifier: string | null): { record: BrowserSourceRecord; created: boolean } {
    const existing = this.store.data.browser_sources.find(
      (b) => b.user_id === userId && b.browser_source_type === type && b.identifier === identifier,
    );
    if (existing) return { record: { ...existing }, created: false };
    return this.store.update((data) => {
      const now = timestamp();
      const record: BrowserSourceRecord = {
        id: Store.nextId(data, "browser_sources"),
        user_id: userId,
        identifier,
        browser_source_type: type,
        access_token: randomUUID(),
        created_at: now,
        updated_at: now,
      };
      data.browser_sources.push(record);
      return { record: { ...record }, created: true };
    }, { users: [userId] });
  }

  /** The record with this id owned by this user, or null. */
  getForUser(userId: number, id: number): BrowserSourceRecord | null {
    const r = this.store.data.browser_sources.find((b) => b.id === id && b.user_id === userId);
    return r ? { ...r } : null;
  }

  /** The record with this id, or null. */
  get(id: number): BrowserSourceRecord | null {
    const r = this.store.data.browser_sources.find((b) => b.id === id);
    return r ? { ...r } : null;
  }

  /** The record whose access token is `token` (compared in constant time), or null. */
  findByAccessToken(token: string): BrowserSourceRecord | null {
    const id = this.#lookup().get(sha256Hex(token));
    const found = id === undefined ? undefined : this.store.data.browser_sources.find((b) => b.id === id);
    return found && constantTimeEqual(found.access_token, token) ? { ...found } : null;
  }

  /** The browser sources of a user. */
  listForUser(userId: number): BrowserSourceRecord[] {
    return this.store.data.browser_sources.filter((b) => b.user_id === userId).map((b) => ({ ...b }));
  }

  /** Saves the source's options (already validated for its type); null when not found. */
  saveSettings(userId: number, id: number, settings: Record<string, unknown>): BrowserSourceRecord | null {
    return this.store.update((data) => {
      const r = data.browser_sources.find((b) => b.id === id && b.user_id === userId);
      if (!r) return null;
      r.settings = structuredClone(settings);
      r.updated_at = timestamp();
      return { ...r };
    }, { users: [userId] });
  }

  /** Gives the record a new access token (the old URL stops working); null when not found. */
  regenerate(userId: number, id: number): BrowserSourceRecord | null {
    return this.store.update((data) => {
      const r = data.browser_sources.find((b) => b.id === id && b.user_id === userId);
      if (!r) return null;
      r.access_token = randomUUID();
      this.#index = null;
      r.updated_at = timestamp();
      return { ...r };
    }, { users: [userId] });
  }
}
