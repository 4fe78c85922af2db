import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { Adapter, AdapterPayload } from "oidc-provider";

/** The oidc-provider artifacts table (migration `0002_oidc`). */
export interface OidcTable {
  ovation_oidc: { model: string; key: string; payload: unknown; grant_id: string | null; uid: string | null; user_code: string | null; expires_at: number | null };
}

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

/**
 * oidc-provider storage in PostgreSQL (`ovation_oidc`), used for every model but `Client` when
 * OVATION_DATABASE_URL is set. Like the file adapter: rows are keyed by the SHA-256 of the
 * artifact id (tokens, codes and session ids are bearer secrets) and stored without their `jti`,
 * which `find` puts back; user codes are hashed too; expired rows are never returned and are
 * deleted on write.
 */
export class PostgresOidcAdapter implements Adapter {
  constructor(
    private readonly model: string,
    private readonly db: Kysely<OidcTable>,
    private readonly nowMs: () => number,
  ) {}

  #now(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  #live() {
    return this.db
      .selectFrom("ovation_oidc")
      .select("payload")
      .where("model", "=", this.model)
      .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", this.#now())]));
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const { jti: _jti, ...rest } = payload;
    const row = {
      model: this.model,
      key: sha256(id),
      payload: sql`${JSON.stringify(rest)}::jsonb`,
      grant_id: typeof payload.grantId === "string" ? payload.grantId : null,
      uid: typeof payload.uid === "string" ? payload.uid : null,
      user_code: typeof payload.userCode === "string" ? sha256(payload.userCode) : null,
      expires_at: expiresIn ? this.#now() + expiresIn : null,
    };
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("ovation_oidc").where("expires_at", "<=", this.#now()).execute();
      await trx
        .insertInto("ovation_oidc")
        .values(row)
        .onConflict((oc) =>
          oc.columns(["model", "key"]).doUpdateSet({ payload: row.payload, grant_id: row.grant_id, uid: row.uid, user_code: row.user_code, expires_at: row.expires_at }),
        )
        .execute();
    });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const row = await this.#live().where("key", "=", sha256(id)).executeTakeFirst();
    return row === undefined ? undefined : ({ ...(row.payload as AdapterPayload), jti: id } as AdapterPayload);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const row = await this.#live().where("user_code", "=", sha256(userCode)).executeTakeFirst();
    return row?.payload as AdapterPayload | undefined;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const row = await this.#live().where("uid", "=", uid).executeTakeFirst();
    return row?.payload as AdapterPayload | undefined;
  }

  async consume(id: string): Promise<void> {
    await sql`update ovation_oidc set payload = jsonb_set(payload, '{consumed}', to_jsonb(${this.#now()}::bigint))
      where model = ${this.model} and key = ${sha256(id)}`.execute(this.db);
  }

  async destroy(id: string): Promise<void> {
    await this.db.deleteFrom("ovation_oidc").where("model", "=", this.model).where("key", "=", sha256(id)).execute();
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.deleteFrom("ovation_oidc").where("grant_id", "=", grantId).execute();
  }
}
