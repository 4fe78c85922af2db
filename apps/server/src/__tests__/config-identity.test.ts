import { describe, expect, test } from "vitest";
import { ConfigError, loadConfig } from "../config.js";

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env, "/srv/ovation");
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("loadConfig accepted the configuration");
}

describe("OVATION_IDENTITY_MODE", () => {
  test("defaults to local, which needs nothing else", () => {
    expect(loadConfig({}, "/srv/ovation").identity).toEqual({ mode: "local" });
    expect(loadConfig({ OVATION_IDENTITY_MODE: "local", OVATION_ID_URL: "https://id.example.com" }, "/srv/ovation").identity).toEqual({ mode: "local" });
  });

  test("remote takes the identity host and its introspection client", () => {
    const config = loadConfig(
      { OVATION_IDENTITY_MODE: "remote", OVATION_ID_URL: "https://id.example.com/", OVATION_ID_CLIENT_ID: "main-api", OVATION_ID_CLIENT_SECRET: "s3cret" },
      "/srv/ovation",
    );
    expect(config.identity).toEqual({ mode: "remote", idUrl: "https://id.example.com", clientId: "main-api", clientSecret: "s3cret", recheckMs: 30_000 });
    expect(Object.isFrozen(config.identity)).toBe(true);
  });

  test("remote re-checks tokens every OVATION_ID_RECHECK_SECONDS; a bad value is named", () => {
    const env = { OVATION_IDENTITY_MODE: "remote", OVATION_ID_URL: "https://id.example.com/", OVATION_ID_CLIENT_ID: "main-api", OVATION_ID_CLIENT_SECRET: "s3cret" };
    expect(loadConfig({ ...env, OVATION_ID_RECHECK_SECONDS: "5" }, "/srv/ovation").identity).toMatchObject({ recheckMs: 5_000 });
    expect(problemsOf({ ...env, OVATION_ID_RECHECK_SECONDS: "0" })[0]).toMatch(/^OVATION_ID_RECHECK_SECONDS: /);
  });

  test("remote without its variables names each missing one", () => {
    const problems = problemsOf({ OVATION_IDENTITY_MODE: "remote" });
    expect(problems).toHaveLength(3);
    for (const name of ["OVATION_ID_URL", "OVATION_ID_CLIENT_ID", "OVATION_ID_CLIENT_SECRET"]) {
      expect(problems.some((p) => p.startsWith(`${name}: is required when OVATION_IDENTITY_MODE is remote`))).toBe(true);
    }
    expect(problemsOf({ OVATION_IDENTITY_MODE: "remote", OVATION_ID_URL: "https://id.example.com", OVATION_ID_CLIENT_ID: "main-api" })).toEqual([
      "OVATION_ID_CLIENT_SECRET: is required when OVATION_IDENTITY_MODE is remote",
    ]);
    // An empty value counts as missing.
    expect(problemsOf({ OVATION_IDENTITY_MODE: "remote", OVATION_ID_URL: "https://id.example.com", OVATION_ID_CLIENT_ID: "", OVATION_ID_CLIENT_SECRET: "x" })).toEqual([
      "OVATION_ID_CLIENT_ID: is required when OVATION_IDENTITY_MODE is remote",
    ]);
  });

  test("bad values are named", () => {
    expect(problemsOf({ OVATION_IDENTITY_MODE: "elsewhere" })[0]).toMatch(/^OVATION_IDENTITY_MODE: must be one of local, remote \(got "elsewhere"\)$/);
    expect(problemsOf({ OVATION_IDENTITY_MODE: "remote", OVATION_ID_URL: "ftp://id.example.com", OVATION_ID_CLIENT_ID: "a", OVATION_ID_CLIENT_SECRET: "b" })[0]).toMatch(
      /^OVATION_ID_URL: must be an absolute http\(s\) URL/,
    );
  });
});
