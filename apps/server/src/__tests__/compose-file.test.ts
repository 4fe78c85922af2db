import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import { envSchema, loadConfig } from "../config.js";
import { REPO } from "./packaging-harness.js";

// deploy/compose.yaml cannot be started here (no Docker): its YAML is parsed, the nodes' variables
// are checked against the configuration schema (names and, with the defaults of ${VAR:-default}
// filled in, values), and the proxy's configuration is checked to route every node's id.

interface Service {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
}

const compose = parse(readFileSync(join(REPO, "deploy", "compose.yaml"), "utf8"), { merge: true }) as { services: Record<string, Service> };
const nginx = readFileSync(join(REPO, "deploy", "nginx.conf"), "utf8");
const nodes = Object.entries(compose.services).filter(([, service]) => service.command?.join(" ").includes("ovation.mjs start"));

/** `${NAME:-default}` as Compose fills it when NAME is unset. */
const withDefaults = (value: string) => value.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, "$1");

describe("deploy/compose.yaml", () => {
  test("runs Redis, PostgreSQL, two Ovation nodes with their own server ids, and a proxy", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["build", "db", "node-a", "node-b", "proxy", "redis"]);
    expect(nodes.map(([name]) => name)).toEqual(["node-a", "node-b"]);
    expect(nodes.map(([, service]) => service.environment?.["OVATION_SERVER_ID"])).toEqual(["node-a", "node-b"]);
    for (const [, service] of nodes) {
      expect(Object.keys(service.depends_on ?? {}).sort()).toEqual(["build", "db", "redis"]);
      expect(service.volumes?.some((v) => v.endsWith(":/data"))).toBe(true);
    }
    expect(new Set(nodes.map(([, service]) => service.volumes?.find((v) => v.endsWith(":/data")))).size).toBe(2);
  });

  test("every node variable is one the server reads, and the values load", () => {
    const known = new Set(Object.keys(envSchema.shape));
    for (const [name, service] of nodes) {
      const env = Object.fromEntries(Object.entries(service.environment ?? {}).map(([key, value]) => [key, withDefaults(String(value))]));
      expect(Object.keys(env).filter((key) => !known.has(key)), name).toEqual([]);
      const config = loadConfig(env);
      expect(config.databaseUrl).toMatch(/^postgres:\/\/ovation:[^@]+@db:5432\/ovation$/);
      expect(config.redisUrl).toBe("redis://redis:6379/0");
      expect(config.serverId).toBe(name);
      expect(config.trustProxy).toBe(1);
    }
  });

  test("the proxy routes each node's serverid to that node (the other as backup) and upgrades websockets", () => {
    for (const [name] of nodes) {
      const upstream = new RegExp(`^\\s*${name}\\s+(\\S+);`, "m").exec(nginx)?.[1];
      expect(upstream, name).toBeDefined();
      const block = new RegExp(`upstream ${upstream} \\{([^}]*)\\}`).exec(nginx)?.[1] ?? "";
      expect(block).toMatch(new RegExp(`^\\s*server ${name}:8080(?! [^;]*backup)[^;]*;`, "m"));
      expect(block).toMatch(/ backup;/);
    }
    expect(nginx).toMatch(/map \$cookie_serverid \$ovation_upstream/);
    expect(nginx).toMatch(/proxy_pass http:\/\/\$ovation_upstream;/);
    expect(nginx).toMatch(/proxy_set_header Upgrade \$http_upgrade;/);
    expect(compose.services["proxy"]?.volumes).toContain("./nginx.conf:/etc/nginx/conf.d/default.conf:ro");
  });
});
