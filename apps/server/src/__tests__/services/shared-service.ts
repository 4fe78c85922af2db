import { spawnSync } from "node:child_process";
import type { SpawnSyncOptions } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Servers the tests share (PostgreSQL, Redis) are started lazily by the first test file that
 * needs one and reused by the others of the run: their state lives in the directory named by
 * OVATION_TEST_SERVICES_DIR, which the vitest global setup creates and, at the end of the run,
 * stops every server recorded there. A test file run on its own (no global setup) gets a directory
 * of its own and stops its servers when its process exits.
 */
export const SERVICES_DIR_ENV = "OVATION_TEST_SERVICES_DIR";

/** The unprivileged user servers run as when the tests run as root (PostgreSQL refuses root). */
export const SERVICE_USER = "ovation-test";

/** What a started server leaves behind so that the global teardown can stop it. */
export interface ServiceState {
  port: number;
  /** Shell words that stop the server. */
  stop: string[];
}

let ownDir: string | null = null;
const ownStops: string[][] = [];

function servicesDir(): string {
  const shared = process.env[SERVICES_DIR_ENV];
  if (shared) return shared;
  if (ownDir === null) {
    ownDir = makeServicesDir();
    const dir = ownDir;
    process.once("exit", () => {
      for (const stop of ownStops) run(stop, { stdio: "ignore" });
      rmSync(dir, { recursive: true, force: true });
    });
  }
  return ownDir;
}

/** A fresh directory that the service user can enter. */
export function makeServicesDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "ovation-test-services-"));
  chmodSync(dir, 0o755);
  return dir;
}

/** Stops every server recorded in `dir` and removes it. */
export function stopServices(dir: string): void {
  if (!existsSync(dir)) return;
  for (const name of ["postgres", "redis"]) {
    const file = join(dir, `${name}.json`);
    if (!existsSync(file)) continue;
    const state = JSON.parse(readFileSync(file, "utf8")) as ServiceState;
    run(state.stop, { stdio: "ignore" });
  }
  rmSync(dir, { recursive: true, force: true });
}

/** Runs a command synchronously; throws with its output when it fails. */
export function run(words: readonly string[], options: SpawnSyncOptions = {}): string {
  const [cmd, ...args] = words;
  const result = spawnSync(cmd ?? "", args, { encoding: "utf8", ...options });
  if (result.status !== 0) throw new Error(`${words.join(" ")} failed (${result.status ?? result.signal}): ${String(result.stderr ?? "")}${String(result.stdout ?? "")}`);
  return String(result.stdout ?? "");
}

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

function ensureServiceUser(): void {
  if (spawnSync("id", ["-u", SERVICE_USER], { stdio: "ignore" }).status !== 0) {
    run(["useradd", "--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", SERVICE_USER]);
  }
}

/** Words that run a command as the service user (when root) or as ourselves. */
export function asServiceUser(words: readonly string[]): string[] {
  if (!isRoot()) return [...words];
  ensureServiceUser();
  return ["runuser", "-u", SERVICE_USER, "--", ...words];
}

/** Gives a directory to the service user (when root). */
export function ownByServiceUser(dir: string): void {
  if (!isRoot()) return;
  ensureServiceUser();
  run(["chown", "-R", SERVICE_USER, dir]);
}

/** Installs Debian packages when `probe` is missing (as root with apt-get), else explains what to install. */
export function ensureInstalled(probe: () => boolean, packages: readonly string[]): void {
  if (probe()) return;
  if (!isRoot() || spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status !== 0) {
    throw new Error(`${packages.join(" ")} missing and cannot be installed from here: apt-get install ${packages.join(" ")}`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  run(["apt-get", "update", "-qq"], { env, stdio: "ignore" });
  run(["apt-get", "install", "-y", "-qq", ...packages], { env, stdio: "ignore" });
  if (!probe()) throw new Error(`installed ${packages.join(" ")} but it is still missing`);
}

/**
 * The shared server `name`: started by `start` (given a directory of its own) if this run has
 * none yet, else the one another test file started (waiting for it to be ready).
 */
export async function sharedService(name: string, start: (dir: string) => Promise<ServiceState>): Promise<ServiceState> {
  const dir = servicesDir();
  const stateFile = join(dir, `${name}.json`);
  const failedFile = join(dir, `${name}.failed`);
  try {
    mkdirSync(join(dir, `${name}.lock`));
  } catch {
    const deadline = Date.now() + 120_000;
    while (!existsSync(stateFile)) {
      if (existsSync(failedFile)) throw new Error(`the shared ${name} failed to start: ${readFileSync(failedFile, "utf8")}`);
      if (Date.now() > deadline) throw new Error(`the shared ${name} did not start within 120 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return JSON.parse(readFileSync(stateFile, "utf8")) as ServiceState;
  }
  const home = join(dir, name);
  mkdirSync(home, { mode: 0o755 });
  let state: ServiceState;
  try {
    state = await start(home);
  } catch (error) {
    writeFileSync(failedFile, (error as Error).message);
    throw error;
  }
  if (dir === ownDir) ownStops.push(state.stop);
  writeFileSync(`${stateFile}.tmp`, JSON.stringify(state));
  // Renamed into place only once ready: waiters never read a half-written state.
  run(["mv", `${stateFile}.tmp`, stateFile]);
  return state;
}

/** Blocks this thread for `ms` (a synchronous wait, for callers that cannot await). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Runs `work` once in this test run: the first test file that asks runs it, the others (in other
 * workers, at the same time or later) wait until it is done and then skip it. For preparation that
 * gives every file the same result, such as building the pages' browser bundles from the current
 * source. A failure is reported to every file that waits. A file run on its own does the work itself.
 */
export function oncePerRun(name: string, work: () => void, timeoutMs = 300_000): void {
  const dir = servicesDir();
  const doneFile = join(dir, `${name}.done`);
  const failedFile = join(dir, `${name}.failed`);
  try {
    mkdirSync(join(dir, `${name}.lock`));
  } catch {
    const deadline = Date.now() + timeoutMs;
    while (!existsSync(doneFile)) {
      if (existsSync(failedFile)) throw new Error(`${name} failed in another test file: ${readFileSync(failedFile, "utf8")}`);
      if (Date.now() > deadline) throw new Error(`${name} did not finish within ${timeoutMs / 1000} s in another test file`);
      sleepSync(100);
    }
    return;
  }
  try {
    work();
  } catch (error) {
    writeFileSync(failedFile, (error as Error).message);
    throw error;
  }
  writeFileSync(doneFile, "");
}
