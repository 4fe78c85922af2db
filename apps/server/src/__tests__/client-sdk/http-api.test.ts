import { describe, expect, it } from "vitest";
import { OvationConflictError, OvationEatRequiredError, OvationHttpError, OvationNotFoundError, OvationRateLimitError, OvationValidationError } from "@ovation/client";
import { PASSWORD, useClientFixture } from "./fixture.js";

const caught = (promise: Promise<unknown>): Promise<unknown> => promise.then(
  (value) => ({ resolved: value }),
  (error: unknown) => error,
);

describe("@ovation/client against the real server: the identity /api and EATs", () => {
  const fx = useClientFixture();

  it("account: me, user, connections (filtered) and linking a platform that is not configured", async () => {
    fx.app.ovation.repos.connections.upsert({ user_id: fx.user.id, platform: "twitch", platform_user_id: "555", username: "sam_tv" });
    const me = await fx.client.account.me();
    expect(me).toMatchObject({ id: fx.user.id, email: fx.user.email, has_password: true, two_factor_enabled: false });
    expect(await fx.client.account.user()).toEqual(me);
    expect((await fx.client.account.connections()).map((c) => c.platform_user_id)).toEqual(["555"]);
    expect(await fx.client.account.connections({ platform: "youtube" })).toEqual([]);
    const link = await caught(fx.client.account.linkConnection("twitch"));
    expect(link).toBeInstanceOf(OvationHttpError);
    expect((link as OvationHttpError).code).toMatch(/^OVATION_ERR_IDENTITY_/);
  });

  it("a sensitive call without an EAT is an OvationEatRequiredError; with a bad one reason is invalid; with the mailed one it works", async () => {
    const missing = await caught(fx.client.tokens.create({ name: "bot", scopes: ["alerts:manage"] }));
    expect(missing).toBeInstanceOf(OvationEatRequiredError);
    expect(missing).toMatchObject({ status: 401, reason: "required", code: "OVATION_ERR_IDENTITY_EAT_REQUIRED" });
    const bad = await caught(fx.client.tokens.create({ name: "bot", scopes: ["alerts:manage"] }, { eat: "oveat_not-a-real-token" }));
    expect(bad).toMatchObject({ status: 401, reason: "invalid" });

    const eat = await fx.eat();
    expect(await fx.client.eat.verify({ eat })).toMatchObject({ valid: true, user_id: fx.user.id });
    const created = await fx.client.tokens.create({ name: "bot", scopes: ["alerts:manage"] }, { eat });
    expect(created.token).toBeTruthy();
    expect((await fx.client.tokens.list()).map((t) => t.id)).toContain(created.id);
    const scoped = fx.clientWith({ token: created.token });
    expect((await scoped.alertSets.list()).data.length).toBeGreaterThan(0);
    await fx.client.tokens.revoke(created.id, { eat });
    expect((await fx.client.tokens.list()).find((t) => t.id === created.id)?.revoked_at).not.toBeNull();
    const notMine = await caught(fx.client.tokens.revoke(999_999, { eat }));
    expect(notMine).toBeInstanceOf(OvationNotFoundError);
  });

  it("onEatRequired: the client asks for an EAT once and repeats the call with it; the main API's signing secret too", async () => {
    const asked: string[] = [];
    const client = fx.clientWith({
      token: fx.user.token,
      onEatRequired: async (error) => {
        asked.push(error.code ?? "");
        return fx.eat();
      },
    });
    const secret = await client.commands.signingSecret();
    expect(secret.algorithm).toBe("HMAC-SHA256");
    const rotated = await client.commands.rotateSigningSecret();
    expect(rotated.secret).not.toBe(secret.secret);
    expect(asked).toEqual(["OVATION_ERR_AUTH_EAT_REQUIRED", "OVATION_ERR_AUTH_EAT_REQUIRED"]);
    // Declining the prompt lets the error through.
    const declined = fx.clientWith({ token: fx.user.token, onEatRequired: async () => null });
    expect(await caught(declined.commands.signingSecret())).toBeInstanceOf(OvationEatRequiredError);
  });

  it("email change: mailed link, its page and the confirming form", async () => {
    const eat = await fx.eat();
    const invalid = await caught(fx.client.account.updateEmail({ email: "not an address" }, { eat }));
    expect(invalid).toBeInstanceOf(OvationValidationError);
    expect(Object.keys((invalid as OvationValidationError).errors)).toEqual(["email"]);
    const started = await fx.client.account.updateEmail({ email: "sam.new@example.test" }, { eat });
    expect(started).toMatchObject({ status: "sent", email: "sam.new@example.test" });
    const mail = await fx.smtp.waitFor("sam.new@example.test");
    const token = /[?&]token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] ?? "";
    expect(await fx.client.account.emailVerificationPage(token)).toContain("sam.new@example.test");
    expect(await fx.client.account.confirmEmail(token)).toContain("Email confirmed");
    expect((await fx.client.account.me()).email).toBe("sam.new@example.test");
    fx.user.email = "sam.new@example.test";
    const expired = await caught(fx.client.account.confirmEmail("unknown-token"));
    expect(expired).toBeInstanceOf(OvationHttpError);
    expect((expired as OvationHttpError).status).toBe(400);
  });

  it("security: TOTP status, enrolment, a wrong code; hardware keys: list, options, a bad registration, an unknown key", async () => {
    const eat = await fx.eat();
    expect(await fx.client.security.twoFactorStatus()).toEqual({ enabled: false, recovery_codes_left: 0 });
    const enrolment = await fx.client.security.startTwoFactor({ eat });
    expect(enrolment.otpauth_url).toMatch(/^otpauth:\/\/totp\//);
    const wrong = await caught(fx.client.security.confirmTwoFactor("000000", { eat }));
    expect(wrong).toBeInstanceOf(OvationHttpError);
    expect([401, 422]).toContain((wrong as OvationHttpError).status);
    const noCodes = await caught(fx.client.security.regenerateRecoveryCodes({ eat }));
    expect((noCodes as OvationHttpError).code).toBe("OVATION_ERR_IDENTITY_TOTP_NOT_ENABLED");
    expect(await fx.client.security.securityKeys()).toEqual([]);
    const options = await fx.client.security.securityKeyOptions({ eat });
    expect(options.challenge.length).toBeGreaterThan(10);
    const badKey = await caught(fx.client.security.registerSecurityKey({ name: "", response: { id: "x", rawId: "x", type: "public-key", response: { clientDataJSON: "", attestationObject: "" } } }, { eat }));
    expect(badKey).toBeInstanceOf(OvationValidationError);
    expect(Object.keys((badKey as OvationValidationError).errors)).toContain("name");
    expect(await caught(fx.client.security.removeSecurityKey("no-such-key", { eat }))).toBeInstanceOf(OvationNotFoundError);
    await fx.client.security.disableTwoFactor({ eat });
  });

  it("passwords: associate (refused: not a shadow account), change with a wrong then the right current password", async () => {
    const eat = await fx.eat();
    expect(await caught(fx.client.account.associatePassword({ password: "whatever long enough" }, { eat }))).toBeInstanceOf(OvationConflictError);
    const wrong = await caught(fx.client.account.changePassword({ current_password: "nope", password: "an even longer passphrase" }, { eat }));
    expect(wrong).toBeInstanceOf(OvationHttpError);
    expect((wrong as OvationHttpError).errors).toHaveProperty("current_password");
    expect((await fx.client.account.changePassword({ current_password: PASSWORD, password: "an even longer passphrase" }, { eat })).message).toContain("password was changed");
  });

  it("deletes the account with an EAT; its token stops working", async () => {
    const eat = await fx.eat();
    await fx.client.account.delete({ eat });
    expect(await caught(fx.client.users.account())).toMatchObject({ status: 401 });
  });
});

describe("@ovation/client: rate limits become OvationRateLimitError with retryAfter", () => {
  const fx = useClientFixture({ OVATION_RATE_LIMIT_PER_MINUTE: "3" });

  it("answers 429 with Retry-After after the per-minute budget", async () => {
    let error: unknown = null;
    for (let i = 0; i < 10 && error === null; i++) {
      error = await fx.client.users.account().then(() => null, (e: unknown) => e);
    }
    expect(error).toBeInstanceOf(OvationRateLimitError);
    expect((error as OvationRateLimitError).retryAfter).toBeGreaterThan(0);
    expect((error as OvationRateLimitError).code).toBe("OVATION_ERR_HTTP_RATE_LIMITED");
  });
});
