import { Kysely, PostgresDialect, sql } from "kysely";
import type { Generated } from "kysely";
import { Migrator } from "kysely/migration";
import type { Migration, MigrationProvider } from "kysely/migration";
import pg from "pg";
import type { Logger } from "pino";
import { ApiError } from "../errors.js";
import type { AlertLogEvent } from "./alert-log-events.js";
import type { LoadedStore, StoreBackend, StoreBatch } from "./backend.js";
import { PostgresOidcStorage } from "./postgres-oidc-storage.js";
import type { OidcTable } from "./postgres-oidc-storage.js";
import type { OidcArtifactStorage } from "./oidc-artifact-storage.js";
import type { AlertLogEntry } from "./records.js";

/** The tables, as kysely sees them. */
export interface StoreDatabase extends OidcTable {
  /** One row per document of `partitions.ts` (`meta`, `user:<id>`, `kv:<channel>`, `ext:<key>`). */
  ovation_documents: { key: string; body: unknown; updated_at: Generated<Date> };
  /** One row per logged alert, its acknowledgements and clear flag inside `entry`. */
  ovation_alert_log: { user_id: number; seq: number; entry: unknown; logged_at: Generated<Date> };
}

/** The schema's migrations, in order; run at every start (kysely records which ran). */
const MIGRATIONS: Record<string, Migration> = {
  "0001_documents_and_alert_log": {
    async up(db) {
      await db.schema
        .createTable("ovation_documents")
        .addColumn("key", "text", (c) => c.primaryKey())
        .addColumn("body", "jsonb", (c) => c.notNull())
        .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable("ovation_alert_log")
        .addColumn("user_id", "integer", (c) => c.notNull())
        .addColumn("seq", "bigint", (c) => c.notNull())
        .addColumn("entry", "jsonb", (c) => c.notNull())
        .addColumn("logged_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint("ovation_alert_log_pk", ["user_id", "seq"])
        .execute();
    },
  },
  "0002_oidc": {
    async up(db) {
      await db.schema
        .createTable("ovation_oidc")
        .addColumn("model", "text", (c) => c.notNull())
        .addColumn("key", "text", (c) => c.notNull())
        .addColumn("payload", "jsonb", (c) => c.notNull())
        .addColumn("grant_id", "text")
        .addColumn("uid", "text")
        .addColumn("user_code", "text")
        .addColumn("expires_at", "bigint")
        .addPrimaryKeyConstraint("ovation_oidc_pk", ["model", "key"])
        .execute();
      await db.schema.createIndex("ovation_oidc_grant_id").on("ovation_oidc").column("grant_id").execute();
      await db.schema.createIndex("ovation_oidc_uid").on("ovation_oidc").columns(["model", "uid"]).execute();
    },
  },
};

const migrationProvider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** A fixed advisory-lock key: one Ovation server writes a database at a time. */
const LOCK_KEY = 710_014;

// bigint comes back as text by default; sequence numbers fit a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

import { redactUrl } from "../redact-url.js";

export { redactUrl };

/**
 * The store in PostgreSQL (`OVATION_DATABASE_URL`): documents as JSONB rows, each alert a row of
 * `ovation_alert_log`; acknowledgements and clears update the user's rows only. Migrations run at
 * open; each write is one transaction. Like the embedded store, one server writes a database at a
 * time (a session advisory lock, released when the server stops or its connection drops).
 */
export class PostgresBackend implements StoreBackend {
  readonly description: string;
  readonly #db: Kysely<StoreDatabase>;
  readonly #lockClient: pg.PoolClient | null;
  readonly #onClose: (() => void) | undefined;

  private constructor(db: Kysely<StoreDatabase>, lockClient: pg.PoolClient | null, url: string, onClose: (() => void) | undefined) {
    this.#db = db;
    this.#lockClient = lockClient;
    this.#onClose = onClose;
    this.description = `PostgreSQL at ${redactUrl(url)}`;
  }

  /**
   * Connects, runs pending migrations and (unless `exclusive` is false, as for a migration's
   * source check) takes the database's writer lock. `onClose` runs when the backend is closed.
   */
  static async open(url: string, options: { logger?: Logger; exclusive?: boolean; onClose?: () => void } = {}): Promise<PostgresBackend> {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    pool.on("error", (error) => options.logger?.error({ err: error }, "PostgreSQL connection error"));
    const db = new Kysely<StoreDatabase>({ dialect: new PostgresDialect({ pool }) });
    let lockClient: pg.PoolClient | null = null;
    try {
      const { error } = await new Migrator({ db, provider: migrationProvider, migrationTableName: "ovation_migrations", migrationLockTableName: "ovation_migrations_lock" }).migrateToLatest();
      if (error) throw error;
      if (options.exclusive !== false) {
        lockClient = await pool.connect();
        const { rows } = await lockClient.query<{ locked: boolean }>("select pg_try_advisory_lock($1) as locked", [LOCK_KEY]);
        if (!rows[0]?.locked) {
          throw new ApiError("OVATION_ERR_STORE_LOCKED", { message: `The database ${redactUrl(url)} is in use by another Ovation server.` });
        }
      }
      return new PostgresBackend(db, lockClient, url, options.onClose);
    } catch (error) {
      lockClient?.release();
      await db.destroy();
      if (error instanceof ApiError) throw error;
      throw new ApiError("OVATION_ERR_STORE_UNUSABLE", {
        message: `The database ${redactUrl(url)} (OVATION_DATABASE_URL) cannot be used: ${(error as Error).message}`,
        cause: error,
      });
    }
  }

  async load(): Promise<LoadedStore> {
    const documents = new Map<string, unknown>();
    for (const row of await this.#db.selectFrom("ovation_documents").select(["key", "body"]).execute()) documents.set(row.key, row.body);
    const alertLogs = new Map<number, AlertLogEntry[]>();
    const rows = await this.#db.selectFrom("ovation_alert_log").select(["user_id", "entry"]).orderBy("user_id").orderBy("seq").execute();
    for (const row of rows) {
      let entries = alertLogs.get(row.user_id);
      if (!entries) alertLogs.set(row.user_id, (entries = []));
      entries.push(row.entry as AlertLogEntry);
    }
    return { documents, alertLogs };
  }

  async write(batch: StoreBatch): Promise<void> {
    // Serialise everything now: the data keeps changing while the transaction runs.
    const upserts = batch.documents.filter((d) => d.body !== null).map((d) => ({ key: d.key, body: JSON.stringify(d.body) }));
    const deletes = batch.documents.filter((d) => d.body === null).map((d) => d.key);
    const logs = batch.alertLogs.map(({ userId, events, entries }) => ({
      userId,
      oldest: entries[0]?.seq ?? null,
      events: events.map((e): AlertLogEvent | { t: "add"; seq: number; json: string } => (e.t === "add" ? { t: "add", seq: e.e.seq, json: JSON.stringify(e.e) } : e)),
    }));
    await this.#db.transaction().execute(async (trx) => {
      if (upserts.length > 0) {
        await trx
          .insertInto("ovation_documents")
          .values(upserts.map((u) => ({ key: u.key, body: sql`${u.body}::jsonb` })))
          .onConflict((oc) => oc.column("key").doUpdateSet({ body: sql`excluded.body`, updated_at: sql`now()` }))
          .execute();
      }
      if (deletes.length > 0) await trx.deleteFrom("ovation_documents").where("key", "in", deletes).execute();
      for (const { userId, oldest, events } of logs) {
        for (const event of events) {
          if (event.t === "add" && "json" in event) {
            await trx
              .insertInto("ovation_alert_log")
              .values({ user_id: userId, seq: event.seq, entry: sql`${event.json}::jsonb` })
              .onConflict((oc) => oc.columns(["user_id", "seq"]).doNothing())
              .execute();
          } else if (event.t === "ack") {
            await sql`update ovation_alert_log set entry = jsonb_set(entry, '{acked_by}', (entry->'acked_by') || to_jsonb(${event.bs}::int))
              where user_id = ${userId} and seq = ${event.seq} and not (entry->'acked_by' @> to_jsonb(${event.bs}::int))`.execute(trx);
          } else if (event.t === "clear") {
            await sql`update ovation_alert_log set entry = jsonb_set(entry, '{cleared}', 'true')
              where user_id = ${userId} and seq <= ${event.upTo} and entry->>'cleared' = 'false'`.execute(trx);
          }
        }
        // Bounded like the embedded log: rows older than the user's oldest kept entry go.
        if (oldest !== null) await trx.deleteFrom("ovation_alert_log").where("user_id", "=", userId).where("seq", "<", oldest).execute();
      }
    });
  }

  async replaceAll(store: LoadedStore): Promise<void> {
    const documents = [...store.documents].map(([key, body]) => ({ key, body: JSON.stringify(body) }));
    const rows = [...store.alertLogs].flatMap(([userId, entries]) => entries.map((e) => ({ user_id: userId, seq: e.seq, json: JSON.stringify(e) })));
    await this.#db.transaction().execute(async (trx) => {
      await trx.deleteFrom("ovation_documents").execute();
      await trx.deleteFrom("ovation_alert_log").execute();
      for (let i = 0; i < documents.length; i += 500) {
        await trx
          .insertInto("ovation_documents")
          .values(documents.slice(i, i + 500).map((d) => ({ key: d.key, body: sql`${d.body}::jsonb` })))
          .execute();
      }
      for (let i = 0; i < rows.length; i += 500) {
        await trx
          .insertInto("ovation_alert_log")
          .values(rows.slice(i, i + 500).map((r) => ({ user_id: r.user_id, seq: r.seq, entry: sql`${r.json}::jsonb` })))
          .execute();
      }
    });
  }

  /** Storage for the identity module's oidc-provider artifacts in this database. */
  oidcStorage(): OidcArtifactStorage {
    return new PostgresOidcStorage(this.#db as unknown as Kysely<OidcTable>);
  }

  async close(): Promise<void> {
    try {
      this.#lockClient?.release();
      await this.#db.destroy();
    } finally {
      this.#onClose?.();
    }
  }
}
