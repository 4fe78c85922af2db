import { describe, expect, it } from "vitest";
import { DEFAULT_LIFETIMES, IdentityConfigError, loadIdentityEnv } from "../identity-env.js";

describe("identity configuration from the environment", () => {
  it("defaults to the reference lifetimes: access 15 days, refresh 30 days, EAT and codes 10 minutes", () => {
    const config = loadIdentityEnv({});
    expect(config.lifetimes).toEqual(DEFAULT_LIFETIMES);
    expect(config.lifetimes.accessToken).toBe(15 * 24 * 3600);
    expect(config.lifetimes.refreshToken).toBe(30 * 24 * 3600);
    expect(config.lifetimes.eat).toBe(600);
    expect(config.lifetimes.eatCode).toBe(600);
    expect(config.idUrl).toBeUndefined();
    expect(config.smtpUrl).toBeUndefined();
  });

  it("takes each lifetime, the identity URL, SMTP and platform apps from their variables", () => {
    const config = loadIdentityEnv({
      OVATION_ACCESS_TOKEN_TTL: "3600",
      OVATION_REFRESH_TOKEN_TTL: "7200",
      OVATION_EAT_TTL: "300",
      OVATION_EAT_CODE_TTL: "120",
      OVATION_ID_URL: "https://id.example.com/",
      OVATION_PUBLIC_URL: "https://ignored.example.com",
      OVATION_SMTP_URL: "smtp://user:pass@127.0.0.1:2525",
      OVATION_TWITCH_CLIENT_ID: "tw-id",
      OVATION_TWITCH_CLIENT_SECRET: "tw-secret",
      OVATION_KICK_CLIENT_ID: "only-an-id",
    });
    expect(config.lifetimes).toMatchObject({ accessToken: 3600, refreshToken: 7200, eat: 300, eatCode: 120 });
    expect(config.idUrl).toBe("https://id.example.com");
    expect(config.smtpUrl).toBe("smtp://user:pass@127.0.0.1:2525");
    expect(config.platformCredentials).toEqual({ twitch: { clientId: "tw-id", clientSecret: "tw-secret" } });
    expect(loadIdentityEnv({ OVATION_PUBLIC_URL: "http://stream.example.com:8080" }).idUrl).toBe("http://stream.example.com:8080");
  });

  it("names every bad variable and the rule it breaks", () => {
    let error: unknown;
    try {
      loadIdentityEnv({ OVATION_ACCESS_TOKEN_TTL: "soon", OVATION_EAT_TTL: "-5", OVATION_REFRESH_TOKEN_TTL: "1.5", OVATION_ID_URL: "ftp://id.example.com", OVATION_SMTP_URL: "http://mail" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(IdentityConfigError);
    const problems = (error as IdentityConfigError).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        "OVATION_ACCESS_TOKEN_TTL: must be a number of seconds",
        "OVATION_EAT_TTL: must be positive",
        "OVATION_REFRESH_TOKEN_TTL: must be an integer",
        "OVATION_ID_URL: must be an absolute http(s) URL",
        "OVATION_SMTP_URL: must be an smtp:// or smtps:// URL",
      ]),
    );
    expect((error as IdentityConfigError).code).toBe("OVATION_ERR_CONFIG_INVALID");
  });
});
