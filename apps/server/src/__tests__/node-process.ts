import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { freePort } from "./helpers.js";

const bin = fileURLToPath(new URL("../../bin/ovation.mjs", import.meta.url));

/** A server started as `ovation start` in a process of its own. */
export interface NodeProcess {
  readonly name: string;
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the process printed (stdout and stderr). */
  output(): string;
  /** Stops it the way an outage does (SIGKILL) and waits for the exit. */
  kill(): Promise<void>;
  /** Stops it cleanly (SIGTERM) and waits for the exit, at most 20 s (then SIGKILL). */
  stop(): Promise<void>;
}

/**
 * Starts `node bin/ovation.mjs start` on a free loopback port with `env` (data directory, store,
 * Redis, server id...) and resolves once it printed its quick start (it listens and has run its
 * first-run bootstrap), or rejects after `timeoutMs` with what it printed.
 */
export async function startNodeProcess(name: string, env: Record<string, string>, timeoutMs = 90_000): Promise<NodeProcess> {
  const port = await freePort();
  // With --no-node-snapshot the CLI runs in this process instead of re-executing node, so a signal
  // (SIGKILL included) reaches the server itself.
  const child = spawn(process.execPath, ["--no-node-snapshot", bin, "start"], {
    // OVATION_TEST_NODE_LOG_LEVEL=info (with OVATION_TEST_NODE_LOGS): each channel's state changes in the logs, for a diagnosis.
    env: { ...process.env, OVATION_LOG_LEVEL: process.env["OVATION_TEST_NODE_LOG_LEVEL"] ?? "warn", HOST: "127.0.0.1", PORT: String(port), OVATION_PUBLIC_URL: `http://127.0.0.1:${port}`, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  process.once("exit", () => child.kill("SIGKILL"));
  let out = "";
  child.stdout?.setEncoding("utf8").on("data", (c: string) => (out += c));
  child.stderr?.setEncoding("utf8").on("data", (c: string) => (out += c));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + timeoutMs;
  while (!out.includes("Ovation is running at")) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${name} did not start (exit ${child.exitCode ?? child.signalCode}):\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const waitExit = async (signal: NodeJS.Signals, ms: number) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    await exited;
    clearTimeout(timer);
  };
  return {
    name,
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => out,
    kill: () => waitExit("SIGKILL", 0),
    stop: () => waitExit("SIGTERM", 20_000),
  };
}
