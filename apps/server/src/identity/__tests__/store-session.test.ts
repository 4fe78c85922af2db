import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { KEYS_FILE, loadOrCreateKeys } from "../keys.js";
import { OidcAdapter } from "../oidc/adapter.js";
import { FileOidcStorage } from "../oidc/file-storage.js";
import { ClientRegistry } from "../clients.js";
import { SESSION_COOKIE, SessionService, readCookie } from "../session.js";
import { IdentityStore, IdentityStoreCorruptError } from "../identity-store.js";
import { fakeClock } from "./harness.js";

describe("identity store, oidc adapter and sessions", () => {
  const dirs: string[] = [];
  async function dir(): Promise<string> {
    const d = await mkdtemp(join(tmpdir(), "ovation-identity-unit-"));
    dirs.push(d);
    return d;
  }
  afterEach(async () => {
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });

  it("refuses a file that is not an identity store and leaves it untouched", async () => {
    const d = await dir();
    for (const content of ["{not json", JSON.stringify({ version: 2 })]) {
      await writeFile(join(d, "identity.json"), content);
      await expect(IdentityStore.open(d)).rejects.toBeInstanceOf(IdentityStoreCorruptError);
      expect(await readFile(join(d, "identity.json"), "utf8")).toBe(content);
    }
  });

  it("creates the key file once, owner-readable only, and refuses a damaged one", async () => {
    const d = await dir();
    const first = loadOrCreateKeys(d);
    expect(first.cookie_keys[0]?.length).toBeGreaterThanOrEqual(43);
    expect(first.signing_keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
    expect((await stat(join(d, KEYS_FILE))).mode & 0o777).toBe(0o600);
    expect(loadOrCreateKeys(d)).toEqual(first);
    await writeFile(join(d, KEYS_FILE), "{}");
    expect(() => loadOrCreateKeys(d)).toThrow(/not an identity key file/);
    expect(await readFile(join(d, KEYS_FILE), "utf8")).toBe("{}");
  });

  it("keeps artifacts under hashed ids, restores the id on find, expires and revokes by grant", async () => {
    const d = await dir();
    const clock = fakeClock();
    const store = await IdentityStore.open(d);
    const tokens = new OidcAdapter("AccessToken", new FileOidcStorage(store), clock, new ClientRegistry(d));
    await tokens.upsert("raw-token-value-1234567890", { jti: "raw-token-value-1234567890", grantId: "g1", accountId: "7", kind: "AccessToken" }, 60);
    await tokens.upsert("raw-token-value-abcdefghij", { jti: "raw-token-value-abcdefghij", grantId: "g2", accountId: "7", kind: "AccessToken" }, 60);
    expect(await readFile(store.path, "utf8")).not.toContain("raw-token-value");
    expect(await tokens.find("raw-token-value-1234567890")).toMatchObject({ jti: "raw-token-value-1234567890", accountId: "7" });
    await tokens.consume("raw-token-value-1234567890");
    expect((await tokens.find("raw-token-value-1234567890"))?.consumed).toBe(Math.floor(clock() / 1000));
    await tokens.revokeByGrantId("g1");
    expect(await tokens.find("raw-token-value-1234567890")).toBeUndefined();
    clock.advance(60_000);
    expect(await tokens.find("raw-token-value-abcdefghij")).toBeUndefined();
    const reopened = await IdentityStore.open(d);
    expect(Object.keys(reopened.data.oidc.AccessToken ?? {})).toHaveLength(1);
  });

  it("issues session cookies (Secure behind https), resolves and ends them", async () => {
    const d = await dir();
    const clock = fakeClock();
    const store = await IdentityStore.open(d);
    const plain = new SessionService(store, clock, 3600, () => false);
    const secure = new SessionService(store, clock, 3600, () => true);
    const cookie = await plain.create(5);
    expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{43}; Path=/; HttpOnly; SameSite=Lax; Max-Age=3600$`));
    expect(await secure.create(6)).toMatch(/; Secure$/);
    const raw = readCookie(cookie.split(";")[0], SESSION_COOKIE);
    expect(plain.userOfCookieHeader(`a=b; ${SESSION_COOKIE}=${raw ?? ""}`)).toBe(5);
    expect(JSON.stringify(store.data.sessions)).not.toContain(raw ?? "none");
    expect(plain.userOfCookieHeader(`${SESSION_COOKIE}=forged`)).toBeNull();
    expect(plain.userOfCookieHeader(undefined)).toBeNull();
    clock.advance(3600_000);
    expect(plain.userOfCookieHeader(`${SESSION_COOKIE}=${raw ?? ""}`)).toBeNull();
    const other = await plain.create(5);
    const otherRaw = readCookie(other.split(";")[0], SESSION_COOKIE);
    expect(await plain.destroy(otherRaw)).toContain("Max-Age=0");
    expect(plain.userOf(otherRaw)).toBeNull();
  });
});
