import type { ChatEvent } from "../chat/event.js";
import { TemplateRenderError } from "./template-errors.js";
import type { TemplateHostFunctions } from "./host-functions.js";
import { FairQueue } from "./fair-queue.js";
import { InsertionCache } from "./insertion-cache.js";
import type { IsolatePoolStats } from "./isolate-pool.js";
import { RENDER_STATUS } from "./render-status.js";
import { capOutput } from "./output-cap.js";
import { isPlainText } from "./plain-text.js";
import {
  DEFAULT_SANDBOX_LIMITS,
  FUNCTION_CALL_TIMEOUT_MS,
  MAX_BATCH_ITEMS,
  MAX_FUNCTION_ARGUMENT_CHARS,
  MAX_FUNCTION_RESULT_CHARS,
  PROCESS_TEMPLATE_CACHE,
  HOST_COMPILE_CACHE,
} from "./sandbox-limits.js";
import type { TemplateSandboxLimits } from "./sandbox-limits.js";
import { assertIsolatedVmInstalled } from "./isolated-vm-check.js";
import { SandboxProcess } from "./sandbox-process.js";
import { callTemplateFunction } from "./call-template-function.js";
import type { TemplateFunctionName } from "./function-names.js";
import { TEMPLATE_FUNCTION_NAMES } from "./function-names.js";
import { checkCompileBounds, checkCompiledCode } from "./compile-bounds.js";
import { compileTwig, templateId } from "./twig-compiler.js";
import type { LeadingCall } from "./twig-compiler.js";
import type { AccessNeed } from "./variable-access.js";
import { TEMPLATE_VARIABLES, prunedJson } from "./variable-access.js";

/** A template compiled by {@link TemplateSandbox.compile}; keep it and render it many times. */
export interface CompiledTemplate {
  /** Stable id of the compiled code (equal sources give equal ids). */
  readonly id: string;
  /** The template source as saved. */
  readonly source: string;
  /** True when the source has no template syntax: rendering it never enters the sandbox. */
  readonly plain: boolean;
  /** Template functions the source names (for example `["proxy_pass"]`). */
  readonly functions: readonly TemplateFunctionName[];
}

/** The variables of a command template (docs/commands.md, "Template variables"). */
export interface TemplateVariables {
  /** The command record. */
  readonly command: Readonly<Record<string, unknown>>;
  /** The chat event that triggered the command. */
  readonly event: ChatEvent;
  /** Words of the message; `args[0]` is the command itself. */
  readonly args: readonly string[];
  /** The raw channel name and raw message. */
  readonly irc: { readonly channel: string; readonly message: string };
}

/** Options of {@link TemplateSandbox}; every limit has a documented default. */
export interface TemplateSandboxOptions extends Partial<TemplateSandboxLimits> {
  /** Receives warnings (sandbox restarts); a pino logger fits. Silent when absent. */
  readonly logger?: { warn(details: Record<string, unknown>, message: string): void };
}

/** What {@link TemplateSandbox.stats} reports. */
export interface TemplateSandboxStats {
  /** Process id of the sandbox process, if one runs. */
  readonly sandboxPid: number | undefined;
  /** How many times the sandbox process was restarted after dying. */
  readonly restarts: number;
  /**
   * The isolate pool of the current sandbox process (its counters start afresh with each process);
   * `null` when no sandbox process runs (nothing rendered yet, or closed) or it ended before answering.
   */
  readonly isolates: IsolatePoolStats | null;
  /**
   * Passes of renders sent to the sandbox process since this sandbox was created: one per render,
   * plus one per template-function call answered after a pass stopped at it (a call the template
   * always makes first is made before its first pass and costs none).
   */
  readonly passes: number;
}

interface Job {
  readonly rid: number;
  /** The channel the render is for (the chat event's channel id): the unit of fair scheduling. */
  readonly channel: string;
  readonly template: CompiledTemplate;
  readonly code: string;
  readonly variables: string;
  readonly seed: number;
  readonly now: number;
  /**
   * The answers of this render's template-function calls so far, each the JSON of
   * `[name, argsJson, value]`, kept as text: it only ever travels back to the sandbox.
   */
  readonly results: string[];
  readonly functions: TemplateHostFunctions;
  readonly resolve: (output: string) => void;
  readonly reject: (error: Error) => void;
  reloads: number;
  /** Times the sandbox process died with this render in flight. */
  crashes: number;
}

const codeOf = new WeakMap<CompiledTemplate, string>();
const accessOf = new WeakMap<CompiledTemplate, ReadonlyMap<string, AccessNeed>>();
/** The call each render of a template makes first, made by the host before the first pass. */
const leadingCallOf = new WeakMap<CompiledTemplate, LeadingCall>();

/**
 * The JSON of the variables a template can read, and only those parts of them: a template that
 * reads `event.user.username` and `args[1]` gets `{"event":{"user":{"username":...}},"args":[...]}`.
 * Less to serialise, copy and parse per render; nothing a template could observe differs.
 */
function variablesJson(variables: TemplateVariables, access: ReadonlyMap<string, AccessNeed>): string {
  let out = "{";
  for (const name of TEMPLATE_VARIABLES) {
    const need = access.get(name);
    if (need === undefined) continue;
    const json = prunedJson(variables[name], need);
    if (json !== undefined) out += `${out.length === 1 ? "" : ","}"${name}":${json}`;
  }
  return `${out}}`;
}
const MAX_STARTS_WITHOUT_PROGRESS = 3;
/** Fixed allowance of the batch watchdog (process start, pool warm-up). */
const WATCHDOG_SLACK_MS = 10_000;
/** Per-item allowance of the watchdog for replacing an isolate that hit a limit. */
const ISOLATE_REPLACEMENT_MS = 250;

function checkLimit(name: keyof TemplateSandboxLimits, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`TemplateSandbox option ${name} must be an integer from ${min} to ${max}, got ${value}`);
  }
  return value;
}

/**
 * Compiles Twig-syntax command templates on the host and renders them in isolated-vm isolates that
 * live in a supervised child process. Renders are batched over one pipe; compiled code is sent to
 * the sandbox once and cached there by id. A render that exceeds its time or memory limit fails with
 * a {@link TemplateRenderError}; if the sandbox process dies, the renders in flight fail and the
 * next render starts a new one.
 */
export class TemplateSandbox {
  /** The limits in force. */
  readonly limits: TemplateSandboxLimits;
  private readonly logger: TemplateSandboxOptions["logger"];
  private process: SandboxProcess | null = null;
  /** Renders waiting, per channel, taken round-robin; channels that keep hitting limits go last. */
  private readonly queue = new FairQueue<Job>();
  /** Batches in flight that hold a noisy channel's render (at most one at a time). */
  private readonly noisyBatches = new Set<number>();
  /**
   * No noisy render is sent before this time: after a limit hit the sandbox is replacing an isolate,
   * and a second bomb sent meanwhile would take the only isolate left from the quiet channels.
   */
  private noisyNotBefore = 0;
  private noisyTimer: NodeJS.Timeout | null = null;
  /** Renders in flight when the sandbox process died, re-sent one at a time. */
  private readonly suspects: Job[] = [];
  private readonly inFlight = new Map<number, Job[]>();
  private readonly watchdogs = new Map<number, NodeJS.Timeout>();
  private readonly childCodes = new InsertionCache<true>(PROCESS_TEMPLATE_CACHE);
  /** Compiled templates by source, so unchanged commands are not compiled again on each reload. */
  private readonly compiledBySource = new InsertionCache<CompiledTemplate>(HOST_COMPILE_CACHE);
  private waitingForFunctions = 0;
  private readonly statsRequests = new Map<number, { resolve: (json: string | null) => void; timer: NodeJS.Timeout }>();
  private nextStatsId = 1;
  private nextRenderId = 1;
  private nextBatchId = 1;
  private flushScheduled = false;
  private busy = false;
  private closed = false;
  private startsWithoutProgress = 0;
  private restarts = 0;
  private passes = 0;

  constructor(options: TemplateSandboxOptions = {}) {
    assertIsolatedVmInstalled();
    const merged = { ...DEFAULT_SANDBOX_LIMITS, ...stripUndefined(options) };
    this.limits = Object.freeze({
      memoryLimitMb: checkLimit("memoryLimitMb", merged.memoryLimitMb, 8, 1024),
      timeoutMs: checkLimit("timeoutMs", merged.timeoutMs, 1, 60_000),
      poolSize: checkLimit("poolSize", merged.poolSize, 1, 64),
      outputLimit: checkLimit("outputLimit", merged.outputLimit, 1, 100_000),
      maxFunctionCalls: checkLimit("maxFunctionCalls", merged.maxFunctionCalls, 0, 1_000),
    });
    this.logger = options.logger;
  }

  /** How many times the sandbox process was restarted after dying. */
  get restartCount(): number {
    return this.restarts;
  }

  /** Process id of the current sandbox process, if one runs. */
  get sandboxPid(): number | undefined {
    return this.process && !this.process.dead ? this.process.pid : undefined;
  }

  /**
   * Counters for monitoring and tests: the sandbox process, its restarts, and its isolate pool
   * (isolates created and replaced, the ids of the live ones, the latest replacements and why).
   * Asks the sandbox process, which answers once the isolates it is creating are ready; never starts
   * a sandbox process.
   */
  async stats(): Promise<TemplateSandboxStats> {
    const process = this.process && !this.process.dead && !this.closed ? this.process : null;
    let isolates: IsolatePoolStats | null = null;
    if (process) {
      const json = await new Promise<string | null>((resolve) => {
        const id = this.nextStatsId++;
        const timer = setTimeout(() => this.answerStats(id, null), WATCHDOG_SLACK_MS);
        timer.unref();
        this.statsRequests.set(id, { resolve, timer });
        this.updateBusy();
        process.write(`s\t${id}`);
      });
      isolates = json === null ? null : (JSON.parse(json) as IsolatePoolStats);
    }
    return { sandboxPid: this.sandboxPid, restarts: this.restarts, isolates, passes: this.passes };
  }

  private answerStats(id: number, json: string | null): void {
    const request = this.statsRequests.get(id);
    if (!request) return;
    this.statsRequests.delete(id);
    clearTimeout(request.timer);
    request.resolve(json);
    this.updateBusy();
  }

  /**
   * Parses and compiles `source` on the host (nothing of it runs here). Throws
   * `TemplateSyntaxError` with line and column when the template does not compile, nests deeper or
   * compiles larger than `TEMPLATE_COMPILE_LIMITS`, or compiles to code V8 refuses. Compiling a
   * source compiled before is a cache lookup, so reloading a user's commands recompiles only the
   * ones that changed.
   */
  compile(source: string): CompiledTemplate {
    const cached = this.compiledBySource.get(source);
    if (cached !== undefined) return cached;
    if (!isPlainText(source)) checkCompileBounds(source);
    const compiled = compileTwig(source);
    checkCompiledCode(compiled.code);
    const template: CompiledTemplate = Object.freeze({
      id: templateId(compiled.code),
      source,
      plain: isPlainText(source),
      functions: compiled.functions,
    });
    codeOf.set(template, compiled.code);
    accessOf.set(template, compiled.variables);
    // Decided once here, not per render: arguments over the limit are left to the isolate to refuse.
    if (compiled.leadingCall !== undefined && compiled.leadingCall.argsJson.length <= MAX_FUNCTION_ARGUMENT_CHARS) leadingCallOf.set(template, compiled.leadingCall);
    this.compiledBySource.set(source, template);
    return template;
  }

  /**
   * Renders a compiled template with the command variables; template functions call `functions`.
   * Resolves with the output, trimmed and capped at `outputLimit` characters.
   */
  render(template: CompiledTemplate, variables: TemplateVariables, functions: TemplateHostFunctions): Promise<string> {
    if (this.closed) return Promise.reject(new TemplateRenderError("closed", "The template sandbox is closed"));
    const code = codeOf.get(template);
    if (code === undefined) {
      return Promise.reject(new TypeError("render() needs a template returned by TemplateSandbox.compile()"));
    }
    if (template.plain) return Promise.resolve(capOutput(template.source, this.limits.outputLimit));
    let json: string;
    try {
      json = variablesJson(variables, accessOf.get(template) as ReadonlyMap<string, AccessNeed>);
    } catch (error) {
      return Promise.reject(
        new TemplateRenderError("runtime", "Template variables cannot be copied into the sandbox (not JSON)", {
          cause: error,
        }),
      );
    }
    return new Promise<string>((resolve, reject) => {
      const job: Job = {
        rid: this.nextRenderId++,
        channel: channelOf(variables),
        template,
        code,
        variables: json,
        seed: Math.floor(Math.random() * 0x1_0000_0000),
        now: Date.now(),
        results: [],
        functions,
        resolve,
        reject,
        reloads: 0,
        crashes: 0,
      };
      // A call the template always makes first is made now, not after a first pass that would only
      // stop at it: one pass fewer (a round trip to the sandbox process and a render). The isolate
      // replays it from the recorded answer like any other, and checks its name and arguments.
      const leading = leadingCallOf.get(template);
      if (leading !== undefined && this.limits.maxFunctionCalls > 0) {
        this.callFunction(job, leading.name, leading.argsJson);
      } else this.enqueue(job);
    });
  }

  /** Fails every pending render and stops the sandbox process. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const error = new TemplateRenderError("closed", "The template sandbox was closed before the render finished");
    for (const job of [...this.suspects.splice(0), ...this.queue.drain()]) job.reject(error);
    for (const jobs of this.inFlight.values()) for (const job of jobs) job.reject(error);
    this.inFlight.clear();
    this.noisyBatches.clear();
    if (this.noisyTimer !== null) clearTimeout(this.noisyTimer);
    this.noisyTimer = null;
    for (const timer of this.watchdogs.values()) clearTimeout(timer);
    this.watchdogs.clear();
    for (const id of [...this.statsRequests.keys()]) this.answerStats(id, null);
    const process = this.process;
    this.process = null;
    if (process) await process.close();
  }

  private enqueue(job: Job): void {
    this.queue.push(job.channel, job);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
    this.updateBusy();
  }

  /** Refs the sandbox process's handles while work is pending (changed only on transitions). */
  private updateBusy(): void {
    const busy =
      this.queue.size > 0 ||
      this.suspects.length > 0 ||
      this.inFlight.size > 0 ||
      this.waitingForFunctions > 0 ||
      this.statsRequests.size > 0;
    if (busy === this.busy || !this.process) return;
    this.busy = busy;
    this.process.setBusy(busy);
  }

  private ensureProcess(): SandboxProcess {
    if (this.process && !this.process.dead) return this.process;
    const process: SandboxProcess = new SandboxProcess(this.limits, {
      batch: (batchId, results) => this.onBatch(batchId, results),
      stats: (requestId, json) => this.answerStats(requestId, json),
      log: (message) => this.logger?.warn({ sandboxPid: process.pid }, message),
      exit: (code, signal) => this.onExit(process, code, signal),
    });
    this.process = process;
    this.busy = false;
    this.childCodes.clear();
    return process;
  }

  /**
   * Sends queued renders. Renders that were in flight when the sandbox process died are
   * quarantined: each is re-sent alone, with nothing else in flight, so a template that kills the
   * process takes only itself down the second time.
   */
  private flush(): void {
    this.flushScheduled = false;
    if (this.closed || (this.queue.size === 0 && this.suspects.length === 0)) return;
    const process = this.ensureProcess();
    if (this.suspects.length > 0) {
      if (this.inFlight.size === 0) this.send(process, this.suspects.splice(0, 1));
      this.updateBusy();
      return;
    }
    const maxInFlight = this.limits.poolSize * 4;
    while (this.inFlight.size < maxInFlight) {
      const batch = this.queue.takeQuiet(MAX_BATCH_ITEMS);
      if (batch.length === 0) break;
      this.send(process, batch);
    }
    // Noisy channels (recent time/memory limit hits) get one render at a time, alone in its batch,
    // so a bomb occupies at most one isolate and never drags quiet renders into a re-run.
    if (this.noisyBatches.size === 0 && this.inFlight.size < maxInFlight) {
      const wait = this.noisyNotBefore - Date.now();
      if (wait > 0) this.flushLater(wait);
      else {
        const job = this.queue.takeNoisy();
        if (job !== undefined) this.noisyBatches.add(this.send(process, [job]));
      }
    }
    this.updateBusy();
  }

  /** Flushes again after `ms` (noisy renders waiting for their turn); one timer at a time. */
  private flushLater(ms: number): void {
    if (this.noisyTimer !== null) return;
    this.noisyTimer = setTimeout(() => {
      this.noisyTimer = null;
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    }, ms);
    this.noisyTimer.unref();
  }

  /** A render of `job` hit a limit: penalise its channel and hold noisy renders while the isolate is replaced. */
  private limitHit(job: Job): void {
    this.queue.penalize(job.channel);
    this.noisyNotBefore = Date.now() + ISOLATE_REPLACEMENT_MS;
  }

  private send(process: SandboxProcess, jobs: Job[]): number {
    const tids = [...new Set(jobs.map((job) => job.template.id))];
    const fresh = tids.filter((tid) => !this.childCodes.has(tid));
    const define = this.childCodes.wouldEvict(fresh.length) ? tids : fresh;
    for (const tid of define) {
      const job = jobs.find((candidate) => candidate.template.id === tid) as Job;
      process.write(`d\t${tid}\t${JSON.stringify(job.code)}`);
      this.childCodes.set(tid, true);
    }
    const batchId = this.nextBatchId++;
    // One flat string for the whole batch: the variables JSON is copied once, not once per concatenation.
    const parts = [`r\t${batchId}\t${tids.join(",")}\t[`];
    for (let i = 0; i < jobs.length; i++) {
      const job = jobs[i] as Job;
      const results = job.results.length === 0 ? "[]" : `[${job.results.join(",")}]`;
      parts.push(`${i === 0 ? "" : ","}[${job.rid},"${job.template.id}",${job.seed},${job.now},${results},`, job.variables, "]");
    }
    parts.push("]\n");
    this.inFlight.set(batchId, jobs);
    this.passes += jobs.length;
    this.watchdogs.set(batchId, this.watchdog(process, batchId, jobs.length));
    process.write(parts.join(""));
    return batchId;
  }


  /**
   * The isolates enforce the limits; this is the backstop for a sandbox process that stops
   * answering (every item of the batch re-run alone and timing out, plus slack).
   */
  private watchdog(process: SandboxProcess, batchId: number, items: number): NodeJS.Timeout {
    const limitMs = WATCHDOG_SLACK_MS + items * (this.limits.timeoutMs + ISOLATE_REPLACEMENT_MS);
    const timer = setTimeout(() => {
      this.logger?.warn({ batchId, limitMs, sandboxPid: process.pid }, "template sandbox process stopped answering; killing it");
      process.kill();
    }, limitMs);
    timer.unref();
    return timer;
  }

  private onBatch(batchId: number, resultsJson: string): void {
    const jobs = this.inFlight.get(batchId);
    if (!jobs) return;
    this.inFlight.delete(batchId);
    this.noisyBatches.delete(batchId);
    clearTimeout(this.watchdogs.get(batchId));
    this.watchdogs.delete(batchId);
    this.startsWithoutProgress = 0;
    const results = JSON.parse(resultsJson) as Array<[number, number, ...unknown[]]>;
    // The sandbox answers in the order it was asked; match by render id only when it did not.
    const inOrder = results.length === jobs.length && results.every((result, i) => result[0] === (jobs[i] as Job).rid);
    const byId = inOrder ? null : new Map(jobs.map((job) => [job.rid, job]));
    for (let i = 0; i < results.length; i++) {
      const [rid, status, first, second] = results[i] as [number, number, ...unknown[]];
      const job = byId === null ? (jobs[i] as Job) : byId.get(rid);
      if (job === undefined) continue;
      byId?.delete(rid);
      this.settle(job, status, first, second);
    }
    for (const job of byId?.values() ?? []) {
      job.reject(new TemplateRenderError("runtime", "The template sandbox returned no result for this render"));
    }
    if ((this.queue.size > 0 || this.suspects.length > 0) && !this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
    this.updateBusy();
  }

  private settle(job: Job, status: number, first: unknown, second: unknown): void {
    const limits = this.limits;
    switch (status) {
      case RENDER_STATUS.ok:
        job.resolve(String(first));
        return;
      case RENDER_STATUS.error:
        job.reject(new TemplateRenderError("runtime", `Template error: ${String(first)}`));
        return;
      case RENDER_STATUS.call:
        this.callFunction(job, String(first), String(second));
        return;
      case RENDER_STATUS.functionLimit:
        job.reject(
          new TemplateRenderError(
            "function_limit",
            `Template called template functions more than ${limits.maxFunctionCalls} times in one render`,
            { details: { limit: limits.maxFunctionCalls } },
          ),
        );
        return;
      case RENDER_STATUS.timeout:
        this.limitHit(job);
        job.reject(
          new TemplateRenderError("timeout", `Template exceeded its time limit of ${limits.timeoutMs} ms and was stopped`, {
            details: { limit: limits.timeoutMs },
          }),
        );
        return;
      case RENDER_STATUS.memory:
        this.limitHit(job);
        job.reject(
          new TemplateRenderError("memory", `Template exceeded its memory limit of ${limits.memoryLimitMb} MB and was stopped`, {
            details: { limit: limits.memoryLimitMb },
          }),
        );
        return;
      case RENDER_STATUS.missing:
        if (job.reloads++ < 2) {
          this.childCodes.clear();
          this.enqueue(job);
        } else {
          job.reject(new TemplateRenderError("runtime", "The template sandbox lost the compiled template"));
        }
        return;
      default:
        job.reject(new TemplateRenderError("runtime", `The template sandbox answered an unknown status ${status}`));
    }
  }

  private callFunction(job: Job, name: string, argsJson: string): void {
    if (!(TEMPLATE_FUNCTION_NAMES as readonly string[]).includes(name)) {
      job.reject(new TemplateRenderError("runtime", `Template called an unknown function "${name}"`));
      return;
    }
    if (job.results.length >= this.limits.maxFunctionCalls) {
      job.reject(
        new TemplateRenderError("function_limit", `Template called template functions more than ${this.limits.maxFunctionCalls} times`),
      );
      return;
    }
    this.waitingForFunctions++;
    let timer: NodeJS.Timeout | undefined;
    const answer = Promise.race([
      callTemplateFunction(job.functions, name as TemplateFunctionName, JSON.parse(argsJson) as unknown[]),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${FUNCTION_CALL_TIMEOUT_MS / 1000} s`)),
          FUNCTION_CALL_TIMEOUT_MS,
        );
      }),
    ]);
    answer
      .then((value) => {
        const json = JSON.stringify(value ?? null);
        if (json.length > MAX_FUNCTION_RESULT_CHARS) {
          throw new TemplateRenderError("function", `${name}() returned more than ${MAX_FUNCTION_RESULT_CHARS} characters`);
        }
        job.results.push(`[${JSON.stringify(name)},${JSON.stringify(argsJson)},${json}]`);
        if (this.closed) job.reject(new TemplateRenderError("closed", "The template sandbox was closed before the render finished"));
        else this.enqueue(job);
      })
      .catch((error: unknown) => {
        job.reject(
          error instanceof TemplateRenderError
            ? error
            : new TemplateRenderError("function", `${name}() failed: ${error instanceof Error ? error.message : String(error)}`, {
                cause: error,
                details: { function: name },
              }),
        );
      })
      .finally(() => {
        clearTimeout(timer);
        this.waitingForFunctions--;
        this.updateBusy();
      });
  }

  private onExit(process: SandboxProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.process === process) this.process = null;
    for (const id of [...this.statsRequests.keys()]) this.answerStats(id, null);
    if (this.closed) return;
    this.restarts++;
    this.logger?.warn({ code, signal, sandboxPid: process.pid }, "template sandbox process ended; renders in flight failed");
    const error = new TemplateRenderError(
      "crashed",
      "The template sandbox process stopped during this render (a template probably exhausted its memory); it has been restarted",
      { details: { code, signal } },
    );
    for (const jobs of this.inFlight.values()) {
      for (const job of jobs) {
        if (job.crashes++ === 0) this.suspects.push(job);
        else {
          this.limitHit(job);
          job.reject(error);
        }
      }
    }
    const hadWork = this.inFlight.size > 0;
    this.inFlight.clear();
    this.noisyBatches.clear();
    for (const timer of this.watchdogs.values()) clearTimeout(timer);
    this.watchdogs.clear();
    if (hadWork) this.startsWithoutProgress++;
    if (this.startsWithoutProgress >= MAX_STARTS_WITHOUT_PROGRESS) {
      this.startsWithoutProgress = 0;
      for (const job of [...this.suspects.splice(0), ...this.queue.drain()]) job.reject(error);
    }
    if ((this.queue.size > 0 || this.suspects.length > 0) && !this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }
}

/** The scheduling key of a render: the chat event's channel id ("" when the variables have none). */
function channelOf(variables: TemplateVariables): string {
  const channel = (variables.event as Partial<ChatEvent> | undefined)?.channel;
  return typeof channel?.id === "string" ? channel.id : "";
}

function stripUndefined(options: TemplateSandboxOptions): Partial<TemplateSandboxLimits> {
  const out: Partial<Record<keyof TemplateSandboxLimits, number>> = {};
  for (const key of Object.keys(DEFAULT_SANDBOX_LIMITS) as Array<keyof TemplateSandboxLimits>) {
    const value = options[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
