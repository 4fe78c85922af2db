import type { OidcArtifact, OidcArtifactStorage } from "../../store/oidc-artifact-storage.js";
import type { IdentityStore } from "../identity-store.js";

/** oidc-provider artifacts in the identity lowdb file (`oidc`: one table per model, keyed as the adapter says). */
export class FileOidcStorage implements OidcArtifactStorage {
  constructor(private readonly store: IdentityStore) {}

  #table(model: string): Record<string, OidcArtifact> {
    const all = this.store.data.oidc;
    let table = all[model];
    if (table === undefined) {
      table = {};
      all[model] = table;
    }
    return table;
  }

  #live(entry: OidcArtifact | undefined, now: number): OidcArtifact | undefined {
    return entry === undefined || (entry.expires_at !== null && entry.expires_at <= now) ? undefined : entry;
  }

  async get(model: string, key: string, now: number): Promise<OidcArtifact | undefined> {
    return this.#live(this.#table(model)[key], now);
  }

  async findBy(model: string, field: "uid" | "user_code", value: string, now: number): Promise<OidcArtifact | undefined> {
    return Object.values(this.#table(model)).find((e) => e[field] === value && this.#live(e, now) !== undefined);
  }

  async put(model: string, key: string, artifact: OidcArtifact, now: number): Promise<void> {
    this.#removeWhere((_model, entry) => entry.expires_at !== null && entry.expires_at <= now);
    this.#table(model)[key] = artifact;
    await this.store.save();
  }

  async consume(model: string, key: string, at: number): Promise<void> {
    const entry = this.#table(model)[key];
    if (entry === undefined) return;
    entry.payload.consumed = at;
    await this.store.save();
  }

  async remove(model: string, key: string): Promise<void> {
    const table = this.#table(model);
    if (table[key] === undefined) return;
    delete table[key];
    await this.store.save();
  }

  async removeByGrant(grantId: string): Promise<void> {
    if (this.#removeWhere((_model, entry) => entry.grant_id === grantId) > 0) await this.store.save();
  }

  async removeByAccount(accountId: string, models: readonly string[] | null): Promise<number> {
    const removed = this.#removeWhere((model, entry) => (models === null || models.includes(model)) && entry.payload.accountId === accountId);
    if (removed > 0) await this.store.save();
    return removed;
  }

  #removeWhere(test: (model: string, entry: OidcArtifact) => boolean): number {
    let removed = 0;
    for (const [model, table] of Object.entries(this.store.data.oidc)) {
      for (const [key, entry] of Object.entries(table)) {
        if (test(model, entry)) {
          delete table[key];
          removed += 1;
        }
      }
    }
    return removed;
  }
}
