import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness } from "./harness.js";
import type { Harness } from "./harness.js";
import { api } from "./oauth-helpers.js";

describe("when the SMTP server is down", () => {
  let h: Harness;
  let token: string;
  let userId: number;

  beforeAll(async () => {
    h = await startHarness();
    const user = await h.createUser({ name: "vic", email: "vic@example.com" });
    userId = user.id;
    token = h.repos.tokens.create({ user_id: user.id, name: "t", scopes: ["*"] }).token;
    await h.smtp.close();
  });
  afterAll(async () => {
    await h.close();
  });

  it("answers 503 and keeps neither the code nor the link, so nothing counts against the user", async () => {
    for (let i = 0; i < 6; i += 1) {
      const r = await api(h.base, "/api/eat/request-verification", token, { method: "POST" });
      expect(r.status).toBe(503);
      expect(r.body.code).toBe("OVATION_ERR_IDENTITY_MAIL_FAILED");
    }
    expect(h.identity.store.data.eat_codes.filter((c) => c.user_id === userId)).toEqual([]);

    const shadow = h.repos.users.create({ name: "wes", email: null, password_hash: null });
    const shadowToken = h.repos.tokens.create({ user_id: shadow.id, name: "t", scopes: ["*"] }).token;
    const email = await api(h.base, "/api/users/@me/update-email", shadowToken, { body: { email: "wes@example.com" } });
    expect(email.status).toBe(503);
    expect(email.body.code).toBe("OVATION_ERR_IDENTITY_MAIL_FAILED");
    expect(h.identity.store.data.email_verifications).toEqual([]);
  });
});
