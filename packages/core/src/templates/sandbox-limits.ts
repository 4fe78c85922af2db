/** Limits of the template sandbox; the defaults are documented in docs/templates.md. */
export interface TemplateSandboxLimits {
  /** V8 heap limit of each isolate, in MB (a guideline: a hostile script may briefly use 2-3x). */
  readonly memoryLimitMb: number;
  /**
   * Time one render may run, in milliseconds: wall-clock time while the isolate executes (isolated-vm
   * pauses the clock while the isolate waits); time spent waiting for template functions never counts.
   */
  readonly timeoutMs: number;
  /** Isolates kept warm in the sandbox process. */
  readonly poolSize: number;
  /** Characters of output kept (after trimming). */
  readonly outputLimit: number;
  /** Template-function calls (proxy_pass, json, db...) one render may make. */
  readonly maxFunctionCalls: number;
}

/** The default limits. */
export const DEFAULT_SANDBOX_LIMITS: TemplateSandboxLimits = Object.freeze({
  memoryLimitMb: 16,
  timeoutMs: 50,
  poolSize: 2,
  outputLimit: 500,
  maxFunctionCalls: 20,
});

/** Largest array a template may build with range(), `..` or merge. */
export const MAX_TEMPLATE_ITEMS = 10_000;
/** Longest JSON of the arguments of one template-function call. */
export const MAX_FUNCTION_ARGUMENT_CHARS = 8_192;
/** Longest JSON of the result of one template-function call. */
export const MAX_FUNCTION_RESULT_CHARS = 65_536;
/** Compiled templates each isolate keeps loaded (oldest evicted first). */
export const ISOLATE_TEMPLATE_CACHE = 256;
/** Compiled templates the sandbox process keeps (oldest evicted first; the host resends on need). */
export const PROCESS_TEMPLATE_CACHE = 4_096;
/** Compiled templates the host keeps by source (oldest evicted first), so unchanged commands are not recompiled. */
export const HOST_COMPILE_CACHE = 1_024;
/** Renders sent to the sandbox process in one message. */
export const MAX_BATCH_ITEMS = 64;
/** A template-function call the host has not answered within this time fails the render. */
export const FUNCTION_CALL_TIMEOUT_MS = 10_000;
