import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config.js";
import { createRepositories } from "../../store/repositories.js";
import { Store } from "../../store/store.js";
import { loadIdentityEnv } from "../identity-env.js";
import { securityKeyUrlProblem } from "../mfa/webauthn.js";
import { createIdentityModule } from "../module.js";

describe("security keys need a host name, not an IP address (issue 20)", () => {
  it("names the problem and the fix for IP URLs only", () => {
    for (const url of ["http://127.0.0.1:8080", "http://[::1]:8080", "https://192.168.1.20"]) {
      expect(securityKeyUrlProblem(url)).toMatch(/IP address.*localhost/);
    }
    for (const url of ["http://localhost:8080", "https://alerts.example.com"]) expect(securityKeyUrlProblem(url)).toBeNull();
  });

  it("warns at start when the identity URL is an IP address", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ovation-idurl-"));
    const lines: string[] = [];
    const logger = pino({ level: "warn" }, new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(chunk.toString()), done()) }));
    const store = await Store.open(dir);
    const repos = createRepositories(store);
    const module = await createIdentityModule({ dataDir: dir, users: repos.users, connections: repos.connections, tokens: repos.tokens, logger, env: loadIdentityEnv({}), idUrl: "http://127.0.0.1:8080" });
    module.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
    const warning = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).find((l) => l.msg.includes("Security keys"));
    expect(warning?.level).toBe(40);
    expect(warning?.msg).toContain("OVATION_PUBLIC_URL=http://localhost:<port>");
  });

  it("the quick start's public URL names localhost for loopback hosts", () => {
    expect(loadConfig({ HOST: "127.0.0.1", PORT: "8080" }).publicUrl).toBe("http://localhost:8080");
    expect(loadConfig({ HOST: "::1", PORT: "8080" }).publicUrl).toBe("http://localhost:8080");
    expect(loadConfig({}).publicUrl).toBe("http://localhost:8080");
  });
});
