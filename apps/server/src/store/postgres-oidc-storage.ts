import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { OidcArtifact, OidcArtifactStorage } from "./oidc-artifact-storage.js";

/** The oidc-provider artifacts table (migration `0002_oidc`). */
export interface OidcTable {
  ovation_oidc: { model: string; key: string; payload: unknown; grant_id: string | null; uid: string | null; user_code: string | null; expires_at: number | null };
}

type Row = { payload: unknown; expires_at: number | null; grant_id: string | null; uid: string | null; user_code: string | null };

function artifactOf(row: Row | undefined): OidcArtifact | undefined {
  if (row === undefined) return undefined;
  const artifact: OidcArtifact = { payload: row.payload as Record<string, unknown>, expires_at: row.expires_at === null ? null : Number(row.expires_at) };
  if (row.grant_id !== null) artifact.grant_id = row.grant_id;
  if (row.uid !== null) artifact.uid = row.uid;
  if (row.user_code !== null) artifact.user_code = row.user_code;
  return artifact;
}

/**
 * oidc-provider artifacts in PostgreSQL (`ovation_oidc`, one row per model and key), used when
 * OVATION_DATABASE_URL is set. Keys and hashing are the identity module's (identity/oidc/adapter.ts);
 * this class only keeps the rows.
 */
export class PostgresOidcStorage implements OidcArtifactStorage {
  constructor(private readonly db: Kysely<OidcTable>) {}

  #live(model: string, now: number) {
    return this.db
      .selectFrom("ovation_oidc")
      .select(["payload", "expires_at", "grant_id", "uid", "user_code"])
      .where("model", "=", model)
      .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]));
  }

  async get(model: string, key: string, now: number): Promise<OidcArtifact | undefined> {
    return artifactOf(await this.#live(model, now).where("key", "=", key).executeTakeFirst());
  }

  async findBy(model: string, field: "uid" | "user_code", value: string, now: number): Promise<OidcArtifact | undefined> {
    return artifactOf(await this.#live(model, now).where(field, "=", value).executeTakeFirst());
  }

  async put(model: string, key: string, artifact: OidcArtifact, now: number): Promise<void> {
    const row = {
      model,
      key,
      payload: sql`${JSON.stringify(artifact.payload)}::jsonb`,
      grant_id: artifact.grant_id ?? null,
      uid: artifact.uid ?? null,
      user_code: artifact.user_code ?? null,
      expires_at: artifact.expires_at,
    };
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("ovation_oidc").where("expires_at", "<=", now).execute();
      await trx
        .insertInto("ovation_oidc")
        .values(row)
        .onConflict((oc) =>
          oc.columns(["model", "key"]).doUpdateSet({ payload: row.payload, grant_id: row.grant_id, uid: row.uid, user_code: row.user_code, expires_at: row.expires_at }),
        )
        .execute();
    });
  }

  async consume(model: string, key: string, at: number): Promise<void> {
    await sql`update ovation_oidc set payload = jsonb_set(payload, '{consumed}', to_jsonb(${at}::bigint))
      where model = ${model} and key = ${key}`.execute(this.db);
  }

  async remove(model: string, key: string): Promise<void> {
    await this.db.deleteFrom("ovation_oidc").where("model", "=", model).where("key", "=", key).execute();
  }

  async removeByGrant(grantId: string): Promise<void> {
    await this.db.deleteFrom("ovation_oidc").where("grant_id", "=", grantId).execute();
  }

  async removeByAccount(accountId: string, models: readonly string[] | null): Promise<number> {
    let query = this.db.deleteFrom("ovation_oidc").where(sql<string>`payload->>'accountId'`, "=", accountId);
    if (models !== null) query = query.where("model", "in", [...models]);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
