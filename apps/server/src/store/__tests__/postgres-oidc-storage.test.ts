import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freshDatabase, sharedPostgres } from "../../__tests__/services/postgres.js";
import { OidcAdapter } from "../../identity/oidc/adapter.js";
import { PostgresBackend } from "../postgres-backend.js";

beforeAll(() => sharedPostgres(), 120_000);

describe("oidc-provider artifacts in PostgreSQL, through the identity adapter", () => {
  let backend: PostgresBackend;
  let url: string;
  let now = 1_000_000_000_000;
  const clock = () => now;
  beforeAll(async () => {
    url = await freshDatabase();
    backend = await PostgresBackend.open(url);
  });
  afterAll(() => backend.close());
  const adapter = (model: string) => new OidcAdapter(model, backend.oidcStorage(), clock, { find: () => undefined });

  test("find, by uid and by user code; ids and user codes are stored hashed, jti put back", async () => {
    const sessions = adapter("Session");
    await sessions.upsert("secret-session-id", { jti: "secret-session-id", uid: "uid-1", accountId: "7", kind: "Session" }, 60);
    expect(await sessions.find("secret-session-id")).toEqual({ uid: "uid-1", accountId: "7", kind: "Session", jti: "secret-session-id" });
    expect(await sessions.findByUid("uid-1")).toEqual({ uid: "uid-1", accountId: "7", kind: "Session" });
    const devices = adapter("DeviceCode");
    await devices.upsert("device-1", { userCode: "ABCD-EFGH", kind: "DeviceCode" }, 60);
    expect((await devices.findByUserCode("ABCD-EFGH"))?.kind).toBe("DeviceCode");
    // Models are separate tables in effect.
    expect(await devices.find("secret-session-id")).toBeUndefined();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query("select key, user_code, payload::text as payload from ovation_oidc");
    await client.end();
    expect(JSON.stringify(rows)).not.toContain("secret-session-id");
    expect(JSON.stringify(rows.map((r) => r.user_code))).not.toContain("ABCD-EFGH");
  });

  test("consume marks, destroy removes, revokeByGrantId removes every model's artifacts of the grant, expiry hides", async () => {
    const codes = adapter("AuthorizationCode");
    const tokens = adapter("AccessToken");
    await codes.upsert("code-1", { grantId: "g1", kind: "AuthorizationCode" }, 60);
    await tokens.upsert("at-1", { grantId: "g1", kind: "AccessToken" }, 60);
    await tokens.upsert("at-2", { grantId: "g2", kind: "AccessToken" }, 60);
    await codes.consume("code-1");
    expect((await codes.find("code-1"))?.consumed).toBe(Math.floor(now / 1000));
    await tokens.revokeByGrantId("g1");
    expect([await codes.find("code-1"), await tokens.find("at-1")]).toEqual([undefined, undefined]);
    expect(await tokens.find("at-2")).toBeDefined();
    await tokens.destroy("at-2");
    expect(await tokens.find("at-2")).toBeUndefined();
    await tokens.upsert("short", { kind: "AccessToken" }, 10);
    expect(await tokens.find("short")).toBeDefined();
    now += 11_000;
    expect(await tokens.find("short")).toBeUndefined();
  });
});
