import { randomUUID } from "node:crypto";
import { Kysely, PostgresDialect, sql } from "kysely";
import type { Generated, RawBuilder, Transaction } from "kysely";
import { Migrator } from "kysely/migration";
import type { Migration, MigrationProvider } from "kysely/migration";
import pg from "pg";
import type { Logger } from "pino";
import { ApiError } from "../errors.js";
import type { AlertLogEvent } from "./alert-log-events.js";
import type { LoadedStore, RemoteChange, SharedStoreBackend, StoreBackend, StoreBatch, VersionedDocument, WriteOutcome } from "./backend.js";
import type { DocumentKey } from "./partitions.js";
import { CHANGES_CHANNEL, PostgresListener, USERS_LOCK_KEY, announcements } from "./postgres-listener.js";
import type { ListenerHandlers } from "./postgres-listener.js";
import { redactUrl } from "../redact-url.js";
import { PostgresOidcStorage } from "./postgres-oidc-storage.js";
import type { OidcTable } from "./postgres-oidc-storage.js";
import type { OidcArtifactStorage } from "./oidc-artifact-storage.js";
import { compactEntry, storedEntryJson } from "./logged-alert.js";
import type { AlertLogEntry, StoredAlertLogEntry } from "./records.js";

/** The tables, as kysely sees them. */
export interface StoreDatabase extends OidcTable {
  /** One row per document of `partitions.ts` (`meta`, `user:<id>`, `kv:<channel>`, `kvv:<channel>/<table>/<n>`, `ext:<key>`). */
  ovation_documents: { key: string; body: unknown; updated_at: Generated<Date>; version: Generated<number> };
  /** One row per logged alert, its acknowledgements and clear flag inside `entry`. */
  ovation_alert_log: { user_id: number; seq: number; entry: unknown; logged_at: Generated<Date> };
  /** The last id reserved of each sequence (`IdBlocks`): every node reserves its blocks here. */
  ovation_id_blocks: { name: string; last: number };
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
  "0003_several_nodes": {
    async up(db) {
      // Optimistic concurrency between nodes: a write names the version it started from.
      await db.schema.alterTable("ovation_documents").addColumn("version", "bigint", (c) => c.notNull().defaultTo(1)).execute();
      await db.schema
        .createTable("ovation_id_blocks")
        .addColumn("name", "text", (c) => c.primaryKey())
        .addColumn("last", "bigint", (c) => c.notNull())
        .execute();
    },
  },
};


const migrationProvider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

// bigint comes back as text by default; sequence numbers and versions fit a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export { redactUrl };

/** How a backend uses the database: as one of its nodes, or alone (`ovation migrate-store`). */
export type PostgresMode = "node" | "exclusive";

/** A document's `body` column for a deleted document: rows stay, so versions never go back. */
const DELETED = "null";

/**
 * The store in PostgreSQL (`OVATION_DATABASE_URL`): documents as JSONB rows with a version, each
 * alert a row of `ovation_alert_log`; acknowledgements and clears update the user's rows only.
 * Migrations run at open; each write is one transaction. Several servers ("nodes") may share one
 * database: a document is written only if its version is still the one the node started from
 * (otherwise the write reports a conflict and the store merges), each commit is announced with
 * NOTIFY (keys and versions, never bodies) so the other nodes re-read what changed, and ids come
 * from blocks each node reserves in `ovation_id_blocks`. Every node holds the users' advisory lock
 * shared; `exclusive` mode (`ovation migrate-store`) takes it alone, so a copy never meets a server.
 */
export class PostgresBackend implements StoreBackend {
  readonly description: string;
  readonly #db: Kysely<StoreDatabase>;
  readonly #url: string;
  readonly #lockClient: pg.PoolClient | null;
  readonly #onClose: (() => void) | undefined;
  readonly #logger: Logger | undefined;
  readonly #retryMs: number | undefined;
  /** This backend's name in announcements (its own are ignored). */
  readonly node = randomUUID();
  #listener: PostgresListener | null = null;
  readonly shared: SharedStoreBackend;

  private constructor(db: Kysely<StoreDatabase>, lockClient: pg.PoolClient | null, url: string, options: { onClose?: (() => void) | undefined; logger?: Logger | undefined; listenRetryMs?: number | undefined }) {
    this.#db = db;
    this.#url = url;
    this.#lockClient = lockClient;
    this.#onClose = options.onClose;
    this.#logger = options.logger;
    this.#retryMs = options.listenRetryMs;
    this.description = `PostgreSQL at ${redactUrl(url)}`;
    this.shared = {
      listen: (handlers) => this.#listen(handlers),
      fetchDocuments: (keys) => this.#fetchDocuments(this.#db, keys),
      documentVersions: async () => new Map((await this.#db.selectFrom("ovation_documents").select(["key", "version"]).execute()).map((r) => [r.key, r.version])),
      fetchAlertEntries: (entries) => this.#fetchAlertEntries(entries),
      fetchAlertLogs: () => this.#alertLogs(),
      claimDocument: (key, body) => this.#claim(key, body),
      isTransient,
      reserveIds: async (name, size, floor) => {
        const { rows } = await sql<{ last: number }>`insert into ovation_id_blocks (name, last) values (${name}, ${floor + size})
          on conflict (name) do update set last = greatest(ovation_id_blocks.last, ${floor}::bigint) + ${size}::bigint returning last`.execute(this.#db);
        return { last: Number(rows[0]?.last) };
      },
    };
  }

  /**
   * Connects and runs pending migrations. As a node (the default) the users' lock is taken shared
   * when the store starts listening; `exclusive` takes it alone now, and fails while any node runs.
   * `onClose` runs when the backend is closed; `listenRetryMs` is the pause before the listening
   * connection is opened again after a loss (1 s).
   */
  static async open(url: string, options: { logger?: Logger; mode?: PostgresMode; onClose?: () => void; listenRetryMs?: number } = {}): Promise<PostgresBackend> {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    pool.on("error", (error) => options.logger?.error({ err: error }, "PostgreSQL connection error"));
    const db = new Kysely<StoreDatabase>({ dialect: new PostgresDialect({ pool }) });
    let lockClient: pg.PoolClient | null = null;
    try {
      const { error } = await new Migrator({ db, provider: migrationProvider, migrationTableName: "ovation_migrations", migrationLockTableName: "ovation_migrations_lock" }).migrateToLatest();
      if (error) throw error;
      if (options.mode === "exclusive") {
        lockClient = await pool.connect();
        const { rows } = await lockClient.query<{ locked: boolean }>("select pg_try_advisory_lock($1) as locked", [USERS_LOCK_KEY]);
        if (!rows[0]?.locked) {
          throw new ApiError("OVATION_ERR_STORE_LOCKED", { message: `The database ${redactUrl(url)} is in use by a running Ovation server (or another migration).` });
        }
      }
      return new PostgresBackend(db, lockClient, url, options);
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

  async #listen(handlers: ListenerHandlers): Promise<void> {
    if (this.#listener) throw new Error("already listening");
    const listener = new PostgresListener(this.#url, this.node, handlers, { logger: this.#logger, retryMs: this.#retryMs });
    try {
      await listener.start();
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw new ApiError("OVATION_ERR_STORE_UNUSABLE", {
        message: `The database ${redactUrl(this.#url)} (OVATION_DATABASE_URL) cannot be listened to: ${(error as Error).message}`,
        cause: error,
      });
    }
    this.#listener = listener;
  }

  /** The listening connection's backend process id (tests end it to simulate a lost connection). */
  get listenerProcessId(): number | null {
    return this.#listener?.processId ?? null;
  }

  async load(): Promise<LoadedStore> {
    const documents = new Map<string, unknown>();
    const versions = new Map<string, number>();
    for (const row of await this.#db.selectFrom("ovation_documents").select(["key", "body", "version"]).execute()) {
      versions.set(row.key, row.version);
      if (row.body !== null) documents.set(row.key, row.body);
    }
    return { documents, alertLogs: await this.#alertLogs(), versions };
  }

  async #alertLogs(): Promise<Map<number, AlertLogEntry[]>> {
    const alertLogs = new Map<number, AlertLogEntry[]>();
    const rows = await this.#db.selectFrom("ovation_alert_log").select(["user_id", "entry"]).orderBy("user_id").orderBy(sql`(entry->>'logged_at')::bigint`).orderBy("seq").execute();
    for (const row of rows) {
      let entries = alertLogs.get(row.user_id);
      if (!entries) alertLogs.set(row.user_id, (entries = []));
      entries.push(compactEntry(row.entry as StoredAlertLogEntry));
    }
    return alertLogs;
  }

  async #fetchDocuments(db: Kysely<StoreDatabase>, keys: readonly DocumentKey[]): Promise<VersionedDocument[]> {
    if (keys.length === 0) return [];
    const rows = await db.selectFrom("ovation_documents").select(["key", "body", "version"]).where("key", "in", [...keys]).execute();
    return rows.map((r) => ({ key: r.key as DocumentKey, version: r.version, body: r.body }));
  }

  async #claim(key: DocumentKey, body: unknown): Promise<VersionedDocument> {
    return this.#db.transaction().execute(async (trx) => {
      const json = JSON.stringify(body);
      const written = await trx
        .insertInto("ovation_documents")
        .values({ key, body: sql`${json}::jsonb` })
        .onConflict((oc) =>
          oc
            .column("key")
            .doUpdateSet({ body: sql`excluded.body`, updated_at: sql`now()`, version: sql`ovation_documents.version + 1` })
            .where(sql`ovation_documents.body`, "=", sql`${DELETED}::jsonb`),
        )
        .returning("version")
        .executeTakeFirst();
      if (written) {
        for (const payload of announcements(this.node, { documents: [{ key, version: written.version }], added: [], acks: [], clears: [] })) await sql`select pg_notify(${CHANGES_CHANNEL}, ${payload})`.execute(trx);
        return { key, version: written.version, body: JSON.parse(json) as unknown };
      }
      const [stored] = await this.#fetchDocuments(trx, [key]);
      if (!stored) throw new Error(`${key} vanished while being claimed`);
      return stored;
    });
  }

  async #fetchAlertEntries(entries: ReadonlyArray<{ userId: number; seq: number }>): Promise<AlertLogEntry[]> {
    if (entries.length === 0) return [];
    const rows = await this.#db
      .selectFrom("ovation_alert_log")
      .select("entry")
      .where((eb) => eb.or(entries.map((e) => eb.and([eb("user_id", "=", e.userId), eb("seq", "=", e.seq)]))))
      .execute();
    return rows.map((r) => compactEntry(r.entry as StoredAlertLogEntry));
  }

  async write(batch: StoreBatch): Promise<WriteOutcome> {
    // Serialise everything now: the data keeps changing while the transaction runs.
    const documents = batch.documents.map((d) => ({ key: d.key, base: d.base, json: d.body === null ? null : (d.json ?? JSON.stringify(d.body)) }));
    const logs = batch.alertLogs.map(({ userId, events, entries }) => ({
      userId,
      oldest: entries[0] ? { at: entries[0].logged_at, seq: entries[0].seq } : null,
      events: serialiseLogEvents(events),
    }));
    const announced: RemoteChange = { documents: [], added: [], acks: [], clears: [] };
    // Each statement is a round trip, and a node may take 200 alerts a second: the usual write
    // (alerts added and acknowledged, and nothing else) is one statement, which PostgreSQL runs
    // atomically without a transaction around it. Its parts all see the rows as they were before
    // it, so the update cannot see an alert inserted by the same statement: its acknowledgements
    // in the same write are stored in the inserted row (`serialiseLogEvents`). The update still
    // gets them, for a row already stored (a write sent again after a lost answer: the insert
    // leaves that row as it is).
    const single = documents.length === 0 && logs.every(({ events }) => !events.some((e) => e.t === "clear"));
    if (single) {
      const parts: RawBuilder<unknown>[] = [];
      logs.forEach(({ userId, oldest, events }, i) => {
        const adds = events.filter((e): e is Added => e.t === "add");
        const acks = events.filter((e): e is Acked => e.t === "ack");
        if (adds.length > 0) parts.push(sql`${sql.raw(`added_${i}`)} as (${insertEntries(userId, adds)})`);
        if (acks.length > 0) parts.push(sql`${sql.raw(`acked_${i}`)} as (${acknowledgeEntries(userId, acks)})`);
        if (oldest !== null) parts.push(sql`${sql.raw(`trimmed_${i}`)} as (${trimLog(userId, oldest)})`);
        for (const a of adds) announced.added.push({ userId, seq: a.seq, entry: a.json });
        for (const a of acks) announced.acks.push({ userId, seq: a.seq, bs: a.bs });
      });
      // The payloads as one JSON array of strings (see insertEntries: no array literal to escape).
      const notify = sql`select pg_notify(${CHANGES_CHANNEL}, p) from jsonb_array_elements_text(${JSON.stringify(announcements(this.node, announced))}::jsonb) as p`;
      await (parts.length > 0 ? sql`with ${sql.join(parts)} ${notify}` : notify).execute(this.#db);
      return { written: [], conflicts: [] };
    }
    const conflicted: DocumentKey[] = [];
    return this.#db.transaction().execute(async (trx) => {
      for (const d of documents) {
        const version = await writeDocument(trx, d.key, d.json, d.base);
        if (version === null) conflicted.push(d.key);
        else if (version !== undefined) announced.documents.push({ key: d.key, version });
      }
      for (const { userId, oldest, events } of logs) {
        // The alerts added since the last clear in one insert; every acknowledgement in one update
        // at the end (an acknowledgement only adds a source to `acked_by`: it commutes with the
        // inserts and clears, and comes after the insert of its entry).
        let adds: Added[] = [];
        const acks: Acked[] = [];
        const insertAdds = async () => {
          if (adds.length === 0) return;
          await insertEntries(userId, adds).execute(trx);
          for (const a of adds) announced.added.push({ userId, seq: a.seq, entry: a.json });
          adds = [];
        };
        for (const event of events) {
          if (event.t === "add") adds.push(event);
          else if (event.t === "ack") acks.push(event);
          else {
            await insertAdds();
            await sql`update ovation_alert_log set entry = jsonb_set(entry, '{cleared}', 'true')
              where user_id = ${userId} and seq <= ${event.upTo} and entry->>'cleared' = 'false'`.execute(trx);
            announced.clears.push({ userId, upTo: event.upTo });
          }
        }
        await insertAdds();
        if (acks.length > 0) {
          await acknowledgeEntries(userId, acks).execute(trx);
          for (const a of acks) announced.acks.push({ userId, seq: a.seq, bs: a.bs });
        }
        if (oldest !== null) await trimLog(userId, oldest).execute(trx);
      }
      for (const payload of announcements(this.node, announced)) await sql`select pg_notify(${CHANGES_CHANNEL}, ${payload})`.execute(trx);
      return { written: announced.documents, conflicts: await this.#fetchDocuments(trx, conflicted) };
    });
  }

  async replaceAll(store: LoadedStore): Promise<void> {
    const documents = [...store.documents].map(([key, body]) => ({ key, body: JSON.stringify(body) }));
    const rows = [...store.alertLogs].flatMap(([userId, entries]) => entries.map((e) => ({ user_id: userId, seq: e.seq, json: storedEntryJson(e) })));
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
      await this.#listener?.close();
      this.#lockClient?.release();
      await this.#db.destroy();
    } finally {
      this.#onClose?.();
    }
  }
}

/** An alert added to the log, serialised. */
type Added = { t: "add"; seq: number; json: string };
/** An acknowledgement of a logged alert by a browser source. */
type Acked = Extract<AlertLogEvent, { t: "ack" }>;
/** One change of a user's alert log as a write sends it. */
type LogChange = Added | Acked | Extract<AlertLogEvent, { t: "clear" }>;

/**
 * A user's log events as a write sends them: each alert added as the JSON of its entry, holding
 * every acknowledgement of it in the same write (its `acked_by` in memory already does, as the
 * events were applied before the write; one missing is added), so the insert stores them.
 */
function serialiseLogEvents(events: readonly AlertLogEvent[]): LogChange[] {
  const ackedHere = new Map<number, number[]>();
  for (const e of events) if (e.t === "ack") ackedHere.set(e.seq, [...(ackedHere.get(e.seq) ?? []), e.bs]);
  return events.map((e): LogChange => {
    if (e.t !== "add") return e;
    const missing = (ackedHere.get(e.e.seq) ?? []).filter((bs, i, all) => !e.e.acked_by.includes(bs) && all.indexOf(bs) === i);
    return { t: "add", seq: e.e.seq, json: storedEntryJson(e.e, missing.length === 0 ? e.e.acked_by : [...e.e.acked_by, ...missing]) };
  });
}

/** Inserts a user's new log entries (one row each; one already stored is left as it is). */
function insertEntries(userId: number, adds: readonly Added[]): RawBuilder<unknown> {
  // One JSON text holding every entry's text as it is: as a `jsonb[]` parameter, `pg` wrote an
  // array literal, escaping every quote of every entry with a regular expression (7% of what a
  // node allocated per alert at 200 alerts a second).
  const rows = `[${adds.map((a) => `{"seq":${a.seq},"entry":${a.json}}`).join(",")}]`;
  return sql`insert into ovation_alert_log (user_id, seq, entry)
    select ${userId}::int, t.seq, t.entry from jsonb_to_recordset(${rows}::jsonb) as t(seq bigint, entry jsonb)
    on conflict (user_id, seq) do nothing`;
}

/** Adds each browser source to `acked_by` of the acknowledged entries: once per entry, in the order acknowledged. */
function acknowledgeEntries(userId: number, acks: readonly Acked[]): RawBuilder<unknown> {
  const rows = JSON.stringify(acks.map((a, i) => ({ seq: a.seq, bs: a.bs, i })));
  return sql`with v as (select * from jsonb_to_recordset(${rows}::jsonb) as v(seq bigint, bs int, i int))
    update ovation_alert_log l set entry = jsonb_set(l.entry, '{acked_by}', (l.entry->'acked_by') || (
      select jsonb_agg(n.bs order by n.i) from (
        select v.bs, min(v.i) as i from v where v.seq = l.seq and not (l.entry->'acked_by' @> to_jsonb(v.bs)) group by v.bs) n))
    where l.user_id = ${userId} and l.seq in (select seq from v)
      and exists (select 1 from v where v.seq = l.seq and not (l.entry->'acked_by' @> to_jsonb(v.bs)))`;
}

/** Bounded like the embedded log: the rows logged before the user's oldest kept entry go. */
function trimLog(userId: number, oldest: { at: number; seq: number }): RawBuilder<unknown> {
  return sql`delete from ovation_alert_log where user_id = ${userId} and ((entry->>'logged_at')::bigint, seq) < (${oldest.at}::bigint, ${oldest.seq}::bigint)`;
}

/**
 * Whether an error is the connection's (no SQLSTATE, or connection, resource, shutdown or
 * transaction-rollback classes) rather than the data's (a value PostgreSQL refuses, such as a
 * string with a NUL character in JSONB): only those are worth trying again.
 */
function isTransient(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string" || !/^[0-9A-Z]{5}$/.test(code)) return true;
  return /^(08|40|53|57|58)/.test(code);
}

/**
 * Writes one document (`json` null: marks it deleted) if its stored version is still `base`
 * (null: it must not exist yet; undefined: unconditionally). Returns the new version, undefined
 * when there was nothing to write, or null on a conflict.
 */
async function writeDocument(trx: Transaction<StoreDatabase>, key: DocumentKey, json: string | null, base: number | null | undefined): Promise<number | null | undefined> {
  const body = sql`${json ?? DELETED}::jsonb`;
  if (base === undefined) {
    const row = await trx
      .insertInto("ovation_documents")
      .values({ key, body })
      .onConflict((oc) => oc.column("key").doUpdateSet({ body: sql`excluded.body`, updated_at: sql`now()`, version: sql`ovation_documents.version + 1` }))
      .returning("version")
      .executeTakeFirstOrThrow();
    return row.version;
  }
  if (base === null) {
    if (json === null) {
      const existing = await trx.selectFrom("ovation_documents").select("body").where("key", "=", key).executeTakeFirst();
      return existing === undefined || existing.body === null ? undefined : null;
    }
    const row = await trx.insertInto("ovation_documents").values({ key, body }).onConflict((oc) => oc.column("key").doNothing()).returning("version").executeTakeFirst();
    return row?.version ?? null;
  }
  const row = await trx
    .updateTable("ovation_documents")
    .set({ body, updated_at: sql`now()`, version: sql`version + 1` })
    .where("key", "=", key)
    .where("version", "=", base)
    .returning("version")
    .executeTakeFirst();
  return row?.version ?? null;
}
