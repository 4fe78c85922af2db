import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { tempDataDir } from "../../__tests__/helpers.js";
import { waitFor } from "../../__tests__/socket-helpers.js";
import { freshDatabase, sharedPostgres } from "../../__tests__/services/postgres.js";
import { PostgresBackend } from "../../store/postgres-backend.js";
import { Store } from "../../store/store.js";
import { loadOrCreateKeys, loadOrCreateSharedKeys } from "../keys.js";
import { IdentityStore } from "../identity-store.js";

const dirs: Array<{ remove(): void }> = [];
beforeAll(() => sharedPostgres(), 120_000);
afterAll(() => dirs.forEach((d) => d.remove()));

function dataDir(): string {
  const d = tempDataDir();
  dirs.push(d);
  return d.dir;
}

describe("the identity data in a PostgreSQL store shared by several nodes", () => {
  test("the first node takes over its files (second factors, sessions, keys); every node sees them and their changes", async () => {
    // An installation that ran on files: a TOTP enrolment, a session and its keys.
    const old = dataDir();
    const file = await IdentityStore.open(old);
    file.data.totp.push({ user_id: 1, secret: "JBSWY3DPEHPK3PXP", confirmed_at: 1, recovery_code_hashes: [], last_step: null, created_at: 1 });
    file.data.sessions.push({ id_hash: "h1", user_id: 1, created_at: 1, expires_at: Date.now() + 60_000 });
    await file.save();
    const keys = loadOrCreateKeys(old);

    const url = await freshDatabase();
    const a = await Store.fromBackend(await PostgresBackend.open(url));
    const b = await Store.fromBackend(await PostgresBackend.open(url));
    try {
      const onA = await IdentityStore.shared(a, old);
      expect(await loadOrCreateSharedKeys(old, a)).toEqual(keys);
      // Node B has no files of its own: it gets the same data and keys from the database.
      const fresh = dataDir();
      await waitFor(() => b.data.extensions["identity.totp"] !== undefined && b.data.extensions["identity.keys"] !== undefined, 10_000, "node B to see the identity data");
      const onB = await IdentityStore.shared(b, fresh);
      expect(onB.data.totp.map((t) => t.user_id)).toEqual([1]);
      expect(await loadOrCreateSharedKeys(fresh, b)).toEqual(keys);

      // A sign-out on node B ends the session on node A; a session made on A at the same time survives.
      onB.data.sessions = onB.data.sessions.filter((s) => s.id_hash !== "h1");
      onA.data.sessions.push({ id_hash: "h2", user_id: 1, created_at: 2, expires_at: Date.now() + 60_000 });
      await Promise.all([onB.save(), onA.save()]);
      await waitFor(() => onA.data.sessions.map((s) => s.id_hash).join() === "h2" && onB.data.sessions.map((s) => s.id_hash).join() === "h2", 10_000, "both nodes to hold exactly the new session");
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
