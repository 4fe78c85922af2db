import { describe, expect, test } from "vitest";
import { ConfigError, loadConfig } from "../config.js";

describe("loadConfig", () => {
  test("defaults", () => {
    const config = loadConfig({}, "/srv/ovation");
    expect(config).toMatchObject({
      port: 8080,
      host: "0.0.0.0",
      dataDir: "/srv/ovation/data",
      publicUrl: "http://localhost:8080",
      browserSourceUrl: "http://localhost:8080/browser-source",
      outboundAllowlist: [],
      logLevel: "info",
      rateLimitPerMinute: 600,
      bodyLimitBytes: 262_144,
      trustProxy: false,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  test("values from the environment", () => {
    const config = loadConfig({
      PORT: "9000",
      OVATION_PUBLIC_URL: "https://alerts.example.com/",
      OVATION_OUTBOUND_ALLOWLIST: "api.example.com, 10.0.0.0/8 ,",
      OVATION_LOG_LEVEL: "warn",
    });
    expect(config.publicUrl).toBe("https://alerts.example.com");
    expect(config.browserSourceUrl).toBe("https://alerts.example.com/browser-source");
    expect(config.outboundAllowlist).toEqual(["api.example.com", "10.0.0.0/8"]);
    expect(config.port).toBe(9000);
    expect(loadConfig({ OVATION_TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(loadConfig({ OVATION_TRUST_PROXY: "10.0.0.1, 172.16.0.0/12" }).trustProxy).toEqual(["10.0.0.1", "172.16.0.0/12"]);
    expect(() => loadConfig({ OVATION_TRUST_PROXY: "yes please" })).toThrow(/OVATION_TRUST_PROXY/);
    expect(loadConfig({}).nodeTtlSeconds).toBe(15);
    expect(loadConfig({ OVATION_NODE_TTL_SECONDS: "4" }).nodeTtlSeconds).toBe(4);
    for (const bad of ["1", "301", "2.5", "soon"]) expect(() => loadConfig({ OVATION_NODE_TTL_SECONDS: bad }), bad).toThrow(/OVATION_NODE_TTL_SECONDS: must be a number of seconds between 2 and 300/);
  });

  test("every bad variable is named at once", () => {
    let error: unknown;
    try {
      loadConfig({ PORT: "70000", OVATION_PUBLIC_URL: "ftp://x", OVATION_LOG_LEVEL: "chatty", OVATION_RATE_LIMIT_PER_MINUTE: "-1" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    for (const name of ["PORT", "OVATION_PUBLIC_URL", "OVATION_LOG_LEVEL", "OVATION_RATE_LIMIT_PER_MINUTE"]) expect(message).toContain(name);
    expect((error as ConfigError).code).toBe("OVATION_ERR_CONFIG_INVALID");
  });

  test("HOST must be an IP address or a host name", () => {
    for (const host of ["127.0.0.1", "::", "::1", "localhost", "ovation.internal", "0.0.0.0"]) expect(loadConfig({ HOST: host }).host).toBe(host);
    for (const bad of ["bad host!", "http://localhost", "-x", "a..b", "[::1]"]) {
      expect(() => loadConfig({ HOST: bad }), bad).toThrow(`HOST: must be an IP address or a host name (got ${JSON.stringify(bad)})`);
    }
  });

  test("a bad allowlist entry is named", () => {
    expect(() => loadConfig({ OVATION_OUTBOUND_ALLOWLIST: "ok.example.com,bad host!" })).toThrow(/OVATION_OUTBOUND_ALLOWLIST.*bad host!/);
    for (const bad of ["10.0.0.0/99", "::1/200", "*.example.com", "300.1.2.3/8"]) {
      expect(() => loadConfig({ OVATION_OUTBOUND_ALLOWLIST: `localhost,${bad}` }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ OVATION_OUTBOUND_ALLOWLIST: bad }), bad).toThrow(`OVATION_OUTBOUND_ALLOWLIST: entries must be host names, IPs or CIDRs (bad: ${bad})`);
    }
    expect(loadConfig({ OVATION_OUTBOUND_ALLOWLIST: " localhost , 127.0.0.1, 10.0.0.0/8, fd00::/8, ::1" }).outboundAllowlist).toEqual(["localhost", "127.0.0.1", "10.0.0.0/8", "fd00::/8", "::1"]);
  });
});
