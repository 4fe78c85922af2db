/**
 * State shared by the modules of the isolate script: the nunjucks runtime it runs on, the limits the
 * host passed, and the state of the render under way. The script runs inside a sandbox isolate
 * (no Node built-ins, no host objects); see ../isolate-bootstrap.ts for how it gets there.
 */

/** A nunjucks `SafeString` (output marked safe; `val` is the text). */
export interface SafeString {
  readonly val: string;
}

/** What the script uses of the nunjucks-slim runtime (`globalThis.nunjucks` in the isolate). */
export interface NunjucksSlim {
  runtime: Record<string, unknown> & { SafeString: new (value: string) => SafeString };
  Environment: new (loaders: unknown[], options: Record<string, unknown>) => NunjucksEnvironment;
  Template: new (source: { type: "code"; obj: unknown }, env: NunjucksEnvironment, path: string, eager: boolean) => NunjucksTemplate;
}

/** The nunjucks environment of the isolate. */
export interface NunjucksEnvironment {
  addFilter(name: string, fn: (...args: never[]) => unknown): void;
  getFilter(name: string): (...args: unknown[]) => unknown;
  addTest(name: string, fn: (...args: never[]) => unknown): void;
  addGlobal(name: string, value: unknown): void;
}

/** A loaded template. */
export interface NunjucksTemplate {
  render(context: unknown): string;
}

/** Limits the host passes to the bootstrap function. */
export interface IsolateLimits {
  readonly outputLimit: number;
  readonly maxCalls: number;
  readonly maxItems: number;
  readonly maxArgumentChars: number;
  readonly maxTemplates: number;
  readonly functions: readonly string[];
}

/** One earlier answer of a template-function call: `[name, argsJson, value]`. */
export type CallResult = [string, string, unknown];

/** State of the render under way. */
export interface RenderState {
  readonly rand: () => number;
  readonly now: number;
  readonly results: readonly CallResult[];
  calls: number;
  need: [string, string] | null;
  limitHit: boolean;
}

/** The shared holder; `init` fills it before anything else runs. */
export const rt = {
  SafeString: null as unknown as new (value: string) => SafeString,
  limits: null as unknown as IsolateLimits,
  state: null as RenderState | null,
};

/** Sets the runtime and limits (called once, by the bootstrap). */
export function init(nunjucks: NunjucksSlim, limits: IsolateLimits): void {
  rt.SafeString = nunjucks.runtime.SafeString;
  rt.limits = limits;
}

/** True when `v` is a nunjucks SafeString. */
export function isSafe(v: unknown): v is SafeString {
  return v instanceof rt.SafeString;
}
