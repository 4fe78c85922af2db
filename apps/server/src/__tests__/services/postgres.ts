import { randomBytes } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { pino } from "pino";
import { afterAll, beforeAll } from "vitest";
import { buildApp } from "../../app.js";
import type { OvationApp } from "../../app.js";
import { freePort, tempDataDir, testConfig } from "../helpers.js";
import { asServiceUser, ensureInstalled, ownByServiceUser, run, sharedService } from "./shared-service.js";

const PG_ROOT = "/usr/lib/postgresql";

/** The bin directory of the newest installed PostgreSQL (Debian layout), or null. */
function pgBin(): string | null {
  if (!existsSync(PG_ROOT)) return null;
  const versions = readdirSync(PG_ROOT).filter((v) => existsSync(join(PG_ROOT, v, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(PG_ROOT, versions[0], "bin") : null;
}

async function startPostgres(dir: string): Promise<{ port: number; stop: string[] }> {
  ensureInstalled(() => pgBin() !== null, ["postgresql"]);
  const bin = pgBin() as string;
  const data = join(dir, "data");
  ownByServiceUser(dir);
  run(asServiceUser([join(bin, "initdb"), "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"]));
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  run(asServiceUser([join(bin, "pg_ctl"), "start", "-D", data, "-w", "-t", "60", "-l", join(dir, "log"), "-o", options]));
  return { port, stop: asServiceUser([join(bin, "pg_ctl"), "stop", "-D", data, "-m", "immediate"]) };
}

/** Starts (or finds) the shared PostgreSQL; call from a `beforeAll` with a long timeout. */
export async function sharedPostgres(): Promise<number> {
  return (await sharedService("postgres", startPostgres)).port;
}

/**
 * A fresh, empty database on the PostgreSQL this test run shares (started on a loopback port in
 * a temporary directory, as an unprivileged user, when the first test asks); returns its URL.
 */
export async function freshDatabase(): Promise<string> {
  const port = await sharedPostgres();
  const name = `ovation_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ host: "127.0.0.1", port, user: "postgres", database: "postgres" });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return `postgres://postgres@127.0.0.1:${port}/${name}`;
}

/**
 * For a describe block: `count` server nodes (apps, each with its own data directory) on one fresh
 * database of the shared PostgreSQL, built before its tests and closed after; read the array inside
 * tests.
 */
export function useNodesOnOneDatabase(count: number): OvationApp[] {
  const apps: OvationApp[] = [];
  const dirs: Array<{ remove(): void }> = [];
  beforeAll(async () => {
    await sharedPostgres();
    const url = await freshDatabase();
    for (let i = 0; i < count; i++) {
      const dir = tempDataDir();
      dirs.push(dir);
      apps.push(await buildApp({ config: testConfig(dir.dir, { OVATION_DATABASE_URL: url }), logger: pino({ level: "silent" }) }));
    }
  }, 120_000);
  afterAll(async () => {
    for (const app of apps) await app.close();
    dirs.forEach((d) => d.remove());
  });
  return apps;
}
