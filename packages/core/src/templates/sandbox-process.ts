import { spawn } from "node:child_process";
import type { ChildProcessByStdio } from "node:child_process";
import { dirname, extname, join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { readLines } from "./line-reader.js";
import type { TemplateSandboxLimits } from "./sandbox-limits.js";

/** What the sandbox process reports to its owner. */
export interface SandboxProcessEvents {
  /** The results JSON of batch `batchId`. */
  batch(batchId: number, resultsJson: string): void;
  /** The JSON of the isolate pool's counters, answering stats request `requestId`. */
  stats(requestId: number, statsJson: string): void;
  /** A message worth logging. */
  log(message: string): void;
  /** The process ended (crash, kill or close). */
  exit(code: number | null, signal: NodeJS.Signals | null): void;
}

const here = fileURLToPath(import.meta.url);
const extension = extname(here);
/** The worker entry beside this file: `.ts` when running from source (tests), `.js` from dist. */
const WORKER = join(dirname(here), `sandbox-worker${extension}`);

/**
 * One sandbox child process: started with `--no-node-snapshot` (isolated-vm needs it) and
 * `--enable-experimental-regexp-engine` (the `l` flag `matches` needs), with `tsx`
 * when running from TypeScript source, and with an environment holding nothing but its limits.
 */
export class SandboxProcess {
  private readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private exited = false;
  private readonly exitPromise: Promise<void>;

  constructor(limits: TemplateSandboxLimits, events: SandboxProcessEvents) {
    // The linear-time regex engine runs Twig's `matches` (isolate/regex.ts): no catastrophic backtracking.
    const args = ["--no-node-snapshot", "--enable-experimental-regexp-engine", ...(extension === ".ts" ? ["--import", "tsx"] : []), WORKER];
    this.child = spawn(process.execPath, args, {
      stdio: ["pipe", "pipe", "inherit"],
      env: { OVATION_TEMPLATE_SANDBOX_LIMITS: JSON.stringify(limits) },
    });
    this.child.stdin.on("error", () => undefined);
    this.exitPromise = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => {
        this.exited = true;
        events.exit(code, signal);
        resolve();
      });
    });
    readLines(this.child.stdout, (line) => {
      if (line.startsWith("b\t")) {
        const tab = line.indexOf("\t", 2);
        events.batch(Number(line.slice(2, tab)), line.slice(tab + 1));
      } else if (line.startsWith("s\t")) {
        const tab = line.indexOf("\t", 2);
        events.stats(Number(line.slice(2, tab)), line.slice(tab + 1));
      } else if (line.startsWith("l\t")) {
        events.log(line.slice(2));
      }
    });
    this.setBusy(false);
  }

  /** Process id (for logs and tests). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Whether the process has ended. */
  get dead(): boolean {
    return this.exited;
  }

  /** Sends one protocol line. */
  write(line: string): void {
    if (!this.exited) this.child.stdin.write(line.endsWith("\n") ? line : `${line}\n`);
  }

  /** Keeps the host's event loop alive only while renders are pending. */
  setBusy(busy: boolean): void {
    const handles = [this.child, this.child.stdin, this.child.stdout] as Array<{ ref(): void; unref(): void }>;
    for (const handle of handles) {
      if (busy) handle.ref();
      else handle.unref();
    }
  }

  /** Ends the process: closes its input, then kills it if it has not exited within `graceMs`. */
  async close(graceMs = 2_000): Promise<void> {
    if (this.exited) return;
    this.setBusy(true);
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), graceMs);
    await this.exitPromise;
    clearTimeout(timer);
  }

  /** Kills the process at once. */
  kill(): void {
    if (!this.exited) this.child.kill("SIGKILL");
  }
}
