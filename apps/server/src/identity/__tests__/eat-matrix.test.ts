import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { obtainEat } from "./eat-helper.js";
import { fakeClock, startHarness } from "./harness.js";
import type { Harness } from "./harness.js";
import { api } from "./oauth-helpers.js";

/** Every sensitive identity route: each demands an EAT of the caller besides the bearer token. */
const SENSITIVE: [method: string, path: string, body: unknown][] = [
  ["POST", "/api/users/@me/update-email", { email: "new@example.com" }],
  ["POST", "/api/users/@me/associate-password", { password: "a long enough passphrase" }],
  ["POST", "/api/users/@me/password", { current_password: "x", password: "a long enough passphrase" }],
  ["POST", "/api/users/@me/tokens", { name: "ci", scopes: ["user:read"] }],
  ["DELETE", "/api/users/@me/tokens/1", undefined],
  ["POST", "/api/users/@me/two-factor", {}],
  ["POST", "/api/users/@me/two-factor/confirm", { code: "123456" }],
  ["DELETE", "/api/users/@me/two-factor", undefined],
  ["POST", "/api/users/@me/two-factor/recovery-codes", undefined],
  ["POST", "/api/users/@me/webauthn/options", {}],
  ["POST", "/api/users/@me/webauthn", { name: "key", response: {} }],
  ["DELETE", "/api/users/@me/webauthn/abc", undefined],
  ["DELETE", "/api/users/@me", undefined],
];

describe("sensitive endpoints without, with a foreign and with an expired EAT", () => {
  const clock = fakeClock(Date.now());
  let h: Harness;
  let owner: { token: string; eat: string };
  let other: { token: string; eat: string };

  beforeAll(async () => {
    h = await startHarness({ clock, lifetimes: { eat: 600 } });
    const make = async (name: string) => {
      // A shadow account with an address: the one kind every sensitive route applies to.
      const user = h.repos.users.create({ name, email: `${name}@example.com`, password_hash: null });
      const token = h.repos.tokens.create({ user_id: user.id, name: "t", scopes: ["*"] }).token;
      return { token, eat: await obtainEat(h, token, `${name}@example.com`) };
    };
    owner = await make("tess");
    other = await make("uma");
  });
  afterAll(async () => {
    await h.close();
  });

  it.each(SENSITIVE)("%s %s", async (method, path, body) => {
    const missing = await api(h.base, path, owner.token, { method, body });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ message: "An elevated access token is required.", code: "OVATION_ERR_IDENTITY_EAT_REQUIRED" });
    const foreign = await api(h.base, path, owner.token, { method, body, eat: other.eat });
    expect(foreign.status).toBe(401);
    expect(foreign.body.code).toBe("OVATION_ERR_IDENTITY_EAT_INVALID");
    const forged = await api(h.base, path, owner.token, { method, body, eat: `${owner.eat.slice(0, -4)}AAAA` });
    expect(forged.body.code).toBe("OVATION_ERR_IDENTITY_EAT_INVALID");
  });

  it("refuses every sensitive endpoint once the EAT has expired", async () => {
    clock.advance(600_000);
    for (const [method, path, body] of SENSITIVE) {
      const r = await api(h.base, path, owner.token, { method, body, eat: owner.eat });
      expect(r.status, path).toBe(401);
      expect(r.body.code, path).toBe("OVATION_ERR_IDENTITY_EAT_INVALID");
    }
  });
});
