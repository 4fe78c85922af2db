import { spawn, spawnSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, test } from "vitest";
import { serverNodeFlags } from "../../bin/node-flags.mjs";
import { readStoredData } from "../store/store.js";
import { freePort, tempDataDir } from "./helpers.js";

const bin = fileURLToPath(new URL("../../bin/ovation.mjs", import.meta.url));
const nodeFlags = fileURLToPath(new URL("../../bin/node-flags.mjs", import.meta.url));
const dirs: Array<{ remove(): void }> = [];
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  for (const d of dirs) d.remove();
});

function dataDir(): string {
  const d = tempDataDir();
  dirs.push(d);
  return d.dir;
}

function run(args: string[], env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bin, ...args], { env: { ...process.env, OVATION_LOG_LEVEL: "silent", ...env }, encoding: "utf8", timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Starts `ovation start`, resolves with the child and its stdout once the quick start is printed. */
async function start(env: Record<string, string>): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [bin, "start"], { env: { ...process.env, OVATION_LOG_LEVEL: "silent", HOST: "127.0.0.1", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  let err = "";
  child.stdout?.setEncoding("utf8").on("data", (c: string) => (out += c));
  child.stderr?.setEncoding("utf8").on("data", (c: string) => (err += c));
  const deadline = Date.now() + 60_000;
  while (!out.includes("Browser source")) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`start failed (exit ${child.exitCode}): ${out}\n${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, output: () => out };
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  return exited;
}

describe("ovation CLI", () => {
  test("--help lists the commands", () => {
    const res = run(["--help"], {});
    expect(res.status).toBe(0);
    expect(res.stdout).toContain("ovation user create --name NAME");
    expect(res.stdout).toContain("ovation token create --user NAME");
  }, 60_000);

  test("user create prints the user as JSON; a taken name fails with a code", () => {
    const dir = dataDir();
    const res = run(["user", "create", "--name", "Alice", "--email", "alice@example.test"], { OVATION_DATA_DIR: dir });
    expect(res.status).toBe(0);
    const user = JSON.parse(res.stdout);
    expect(user).toMatchObject({ id: 1, name: "Alice", email: "alice@example.test", uuid: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(user).not.toHaveProperty("password_hash");
    const again = run(["user", "create", "--name", "alice"], { OVATION_DATA_DIR: dir });
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("OVATION_ERR_CLI_USER_EXISTS");
    expect(run(["user", "create", "--name", "x", "--email", "not-an-email"], { OVATION_DATA_DIR: dir }).stderr).toContain("--email");
  }, 120_000);

  test("token create prints only the token; bad input is named", () => {
    const dir = dataDir();
    run(["user", "create", "--name", "Bob"], { OVATION_DATA_DIR: dir });
    const res = run(["token", "create", "--user", "Bob", "--scopes", "alerts:manage chatbot:manage:commands"], { OVATION_DATA_DIR: dir });
    expect(res.status).toBe(0);
    expect(res.stdout.trim()).toMatch(/^ovpat_\d+_[A-Za-z0-9_-]{43}$/);
    const store = readStoredData(dir);
    expect(store.personal_access_tokens[0]?.scopes).toEqual(["alerts:manage", "chatbot:manage:commands"]);
    expect(JSON.stringify(store)).not.toContain(res.stdout.trim());
    expect(readdirSync(join(dir, "store", "users")).map((f) => readFileSync(join(dir, "store", "users", f), "utf8")).join("")).not.toContain(res.stdout.trim());
    const unknownUser = run(["token", "create", "--user", "Nobody"], { OVATION_DATA_DIR: dir });
    expect([unknownUser.status, unknownUser.stderr.includes("OVATION_ERR_CLI_USER_NOT_FOUND")]).toEqual([1, true]);
    const badScope = run(["token", "create", "--user", "Bob", "--scopes", "alerts:manage nope"], { OVATION_DATA_DIR: dir });
    expect([badScope.status, badScope.stderr.includes("nope")]).toEqual([2, true]);
    expect(run(["token", "create"], { OVATION_DATA_DIR: dir }).status).toBe(2);
    expect(run(["frobnicate"], { OVATION_DATA_DIR: dir }).status).toBe(2);
  }, 180_000);

  test("before any build the bin says to build first, with a code", () => {
    const copy = join(dataDir(), "bin");
    mkdirSync(copy);
    copyFileSync(bin, join(copy, "ovation.mjs"));
    copyFileSync(nodeFlags, join(copy, "node-flags.mjs"));
    const result = spawnSync(process.execPath, [join(copy, "ovation.mjs"), "--help"], { encoding: "utf8", timeout: 60_000 });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("run `npm run build`");
    expect(result.stderr).toContain("OVATION_ERR_CLI_NOT_BUILT");
  }, 60_000);

  test("start runs with V8's young generation, or the largest size the operator sets in NODE_OPTIONS (logged at start)", async () => {
    expect(serverNodeFlags()).toEqual(["--no-node-snapshot"]);
    const youngGeneration = (output: string): unknown =>
      output
        .split("\n")
        .filter((line) => line.includes("the young generation's size"))
        .map((line) => Number((JSON.parse(line) as { newSpaceMb?: unknown }).newSpaceMb))[0];
    // V8's new space is one or two semi-spaces: at most 2 x 16 MB by default, 2 x 8 with the operator's
    // 8 (NODE_OPTIONS may carry --max-semi-space-size; --min-semi-space-size only the node command line).
    for (const [nodeOptions, within] of [
      ["", [1, 32]],
      ["--max-semi-space-size=8", [1, 16]],
    ] as const) {
      const running = await start({ OVATION_DATA_DIR: dataDir(), PORT: String(await freePort()), OVATION_LOG_LEVEL: "info", NODE_OPTIONS: nodeOptions });
      const size = youngGeneration(running.output());
      expect(size).toBeGreaterThanOrEqual(within[0]);
      expect(size).toBeLessThanOrEqual(within[1]);
      expect(await stop(running.child)).toBe(0);
    }
  }, 120_000);

  test("a bad environment variable is named", () => {
    const res = run(["user", "create", "--name", "X"], { OVATION_DATA_DIR: dataDir(), PORT: "eighty", OVATION_LOG_LEVEL: "loud" });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain("PORT");
    expect(res.stderr).toContain("OVATION_LOG_LEVEL");
  }, 60_000);

  test("start on a port that is taken fails with a message naming it, leaves no lock and creates nothing", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const address = blocker.address();
    const port = address !== null && typeof address === "object" ? address.port : 0;
    const dir = dataDir();
    try {
      const child = spawn(process.execPath, [bin, "start"], { env: { ...process.env, OVATION_LOG_LEVEL: "silent", HOST: "127.0.0.1", PORT: String(port), OVATION_DATA_DIR: dir }, stdio: ["ignore", "pipe", "pipe"] });
      children.push(child);
      let err = "";
      child.stderr?.setEncoding("utf8").on("data", (c: string) => (err += c));
      const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
      expect(code).toBe(1);
      expect(err).toContain(`Cannot listen on 127.0.0.1:${port}: the address is already in use (EADDRINUSE)`);
      expect(err).toContain("OVATION_ERR_CLI_LISTEN_FAILED");
      expect(existsSync(join(dir, "ovation.lock"))).toBe(false);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
    // Nothing was created, so the first start that can listen still shows the quick-start token.
    const later = await start({ OVATION_DATA_DIR: dir, PORT: String(await freePort()) });
    expect(later.output()).toMatch(/\n {2}ovpat_\d+_[A-Za-z0-9_-]{43}\n/);
    expect(await stop(later.child)).toBe(0);
  }, 60_000);

  test("start: first run prints the quick start, the curl line works, a restart creates nothing twice", async () => {
    const dir = dataDir();
    const port = await freePort();
    const env = { OVATION_DATA_DIR: dir, PORT: String(port), OVATION_PUBLIC_URL: `http://127.0.0.1:${port}` };
    const first = await start(env);
    const out = first.output();
    const token = /\n {2}(ovpat_\d+_[A-Za-z0-9_-]{43})\n/.exec(out)?.[1];
    expect(token).toBeDefined();
    expect(out).toContain(`curl -X POST http://127.0.0.1:${port}/v1/alerts`);
    const hug = await fetch(`http://127.0.0.1:${port}/v1/bots/@me/commands/test`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ message: "!hug Alice" }),
    });
    expect(((await hug.json()) as { text: string }).text).toBe("viewer sends a hug to Alice <3");
    const sourceUrl = /(http:\/\/127\.0\.0\.1:\d+\/browser-source\/alerts\/[0-9a-f-]{36})/.exec(out)?.[1];
    expect(sourceUrl).toBeDefined();

    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);
    const alert = await fetch(`http://127.0.0.1:${port}/v1/alerts`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ template: "follow", data: { name: "Alice" } }),
    });
    expect(alert.status).toBe(201);
    expect((await fetch(sourceUrl as string)).status).toBe(200);

    const extra = run(["token", "create", "--user", "streamer", "--scopes", "user:read"], env);
    expect(extra.status).toBe(0);
    const me = await fetch(`http://127.0.0.1:${port}/v1/users`, { headers: { authorization: `Bearer ${extra.stdout.trim()}` } });
    expect(me.status).toBe(200);
    const created = run(["user", "create", "--name", "Second"], env);
    expect(created.status).toBe(0);

    expect(await stop(first.child)).toBe(0);
    expect(existsSync(join(dir, "ovation.lock"))).toBe(false);

    const second = await start(env);
    expect(second.output()).not.toMatch(/ovpat_\d+_[A-Za-z0-9_-]{43}/);
    expect(second.output()).toContain(sourceUrl as string);
    const again = await fetch(`http://127.0.0.1:${port}/v1/users`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await again.json()) as { name: string }).name).toBe("streamer");
    expect(await stop(second.child)).toBe(0);

    const store = readStoredData(dir);
    expect(store.users.map((u: { name: string }) => u.name)).toEqual(["streamer", "Second"]);
    expect(store.alert_sets.map((s: { user_id: number }) => s.user_id)).toEqual([1, 2]); // every user gets the default set
    expect(store.commands).toHaveLength(1);
    expect(store.personal_access_tokens).toHaveLength(2);
    expect(Object.values(store.alert_log).flat()).toHaveLength(1);
  }, 240_000);
});
