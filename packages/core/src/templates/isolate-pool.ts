import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import ivm from "isolated-vm";
import { InsertionCache } from "./insertion-cache.js";
import { isolateBootstrapSource } from "./isolate-bootstrap.js";
import { RENDER_STATUS } from "./render-status.js";
import {
  ISOLATE_TEMPLATE_CACHE,
  MAX_FUNCTION_ARGUMENT_CHARS,
  MAX_TEMPLATE_ITEMS,
} from "./sandbox-limits.js";
import type { TemplateSandboxLimits } from "./sandbox-limits.js";
import { TEMPLATE_FUNCTION_NAMES } from "./function-names.js";


const require = createRequire(import.meta.url);
const NUNJUCKS_RUNTIME = readFileSync(require.resolve("nunjucks/browser/nunjucks-slim.min.js"), "utf8");

interface Slot {
  /** Serial number of the isolate within this sandbox process (1, 2, ...; never reused). */
  readonly id: number;
  readonly isolate: ivm.Isolate;
  readonly render: ivm.Reference<(batch: readonly [string, string]) => string>;
  /** Mirror of the templates loaded in the isolate (same capacity and order as its own map). */
  readonly loaded: InsertionCache<true>;
}

/** Why an isolate was replaced: the limit its render hit, or another error out of the isolate. */
export type IsolateReplacementReason = "timeout" | "memory" | "error";

/** Counters and identities of the isolates of one sandbox process (see `TemplateSandbox.stats()`). */
export interface IsolatePoolStats {
  /** Isolates created since the sandbox process started, the initial pool included. */
  readonly created: number;
  /** Isolates disposed and replaced because a render failed in them. */
  readonly replaced: number;
  /** Ids of the isolates in the pool now, ascending. */
  readonly live: readonly number[];
  /**
   * Bytes the live isolates hold outside their V8 heaps that isolated-vm counts against their memory
   * limit (summed). Renders add nothing here; a count that grows means copies leak into the limit.
   */
  readonly externalBytes: number;
  /** The latest replacements (at most {@link RECENT_REPLACEMENTS}), oldest first. */
  readonly recentlyReplaced: ReadonlyArray<{
    readonly id: number;
    readonly reason: IsolateReplacementReason;
    /** Whether the isolate is disposed (always true once replaced; reported, not assumed). */
    readonly disposed: boolean;
  }>;
}

/** How many replacements {@link IsolatePoolStats.recentlyReplaced} keeps. */
export const RECENT_REPLACEMENTS = 16;

type Failure = { status: typeof RENDER_STATUS.timeout | typeof RENDER_STATUS.memory } | { status: 1; message: string };

/**
 * A pool of warm isolates inside the sandbox process. Each isolate holds the nunjucks runtime, the
 * Twig environment and a cache of compiled templates; a batch of renders is one call into an
 * isolate. An isolate that hits a limit is disposed and replaced; the batch is then re-run item by
 * item so that only the render that hit the limit fails.
 */
export class IsolatePool {
  private readonly idle: Slot[] = [];
  private readonly waiting: Array<(slot: Slot) => void> = [];
  private readonly live = new Map<number, Slot>();
  private readonly recent: Array<{ slot: Slot; reason: IsolateReplacementReason }> = [];
  private readonly creating = new Set<Promise<unknown>>();
  private created = 0;
  private replaced = 0;

  constructor(
    private readonly limits: TemplateSandboxLimits,
    private readonly onCatastrophe: (message: string) => void,
  ) {}

  /** Creates the isolates of the pool. */
  async start(): Promise<void> {
    await Promise.all(Array.from({ length: this.limits.poolSize }, async () => this.release(await this.createSlot())));
  }

  private createSlot(): Promise<Slot> {
    const id = ++this.created;
    const creation = this.buildSlot(id);
    this.creating.add(creation);
    const forget = (): void => {
      this.creating.delete(creation);
    };
    creation.then(forget, forget);
    return creation;
  }

  private async buildSlot(id: number): Promise<Slot> {
    const isolate = new ivm.Isolate({
      memoryLimit: this.limits.memoryLimitMb,
      onCatastrophicError: this.onCatastrophe,
    });
    const context = await isolate.createContext();
    await (await isolate.compileScript(NUNJUCKS_RUNTIME)).run(context);
    const factory = await (await isolate.compileScript(isolateBootstrapSource())).run(context, { reference: true });
    const limits = {
      outputLimit: this.limits.outputLimit,
      maxCalls: this.limits.maxFunctionCalls,
      maxItems: MAX_TEMPLATE_ITEMS,
      maxArgumentChars: MAX_FUNCTION_ARGUMENT_CHARS,
      maxTemplates: ISOLATE_TEMPLATE_CACHE,
      functions: TEMPLATE_FUNCTION_NAMES,
    };
    const render = (await factory.apply(undefined, [new ivm.ExternalCopy(limits).copyInto()], {
      result: { reference: true },
    })) as ivm.Reference<(batch: readonly [string, string]) => string>;
    factory.release();
    const slot: Slot = { id, isolate, render, loaded: new InsertionCache<true>(ISOLATE_TEMPLATE_CACHE) };
    this.live.set(id, slot);
    return slot;
  }

  private acquire(): Promise<Slot> {
    const slot = this.idle.pop();
    if (slot) return Promise.resolve(slot);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(slot: Slot): void {
    const next = this.waiting.shift();
    if (next) next(slot);
    else this.idle.push(slot);
  }

  private replace(slot: Slot, reason: IsolateReplacementReason): void {
    if (!slot.isolate.isDisposed) slot.isolate.dispose();
    this.live.delete(slot.id);
    this.replaced++;
    this.recent.push({ slot, reason });
    if (this.recent.length > RECENT_REPLACEMENTS) this.recent.shift();
    this.createSlot().then(
      (fresh) => this.release(fresh),
      (error: unknown) => this.onCatastrophe(`cannot create an isolate: ${String(error)}`),
    );
  }

  /**
   * Renders a batch: `items` is the JSON of `[[renderId, templateId, ...], ...]`, `codes` the compiled
   * code of every template id the items use. Resolves with the JSON of the results.
   *
   * The call runs on the isolate's own thread (`apply`), never on this process's main thread
   * (`applySync`): inline calls cost less CPU per batch on an idle machine, but on a loaded one the
   * whole commands bench ran 1.5 to 3 times slower with them (measured), and a render that runs
   * into its time limit would hold up every other batch.
   */
  async run(tids: readonly string[], codes: ReadonlyMap<string, string>, itemsJson: string): Promise<string> {
    const slot = this.idle.pop() ?? (await this.acquire());
    let failure: Failure;
    try {
      const fresh = tids.filter((tid) => !slot.loaded.has(tid));
      const define = slot.loaded.wouldEvict(fresh.length) ? tids : fresh;
      const defs: Array<[string, string]> = [];
      for (const tid of define) {
        const code = codes.get(tid);
        if (code !== undefined) defs.push([tid, code]);
      }
      // The batch goes in as one array copied by isolated-vm's serializer, not as string arguments:
      // a string argument of 1 KB or more becomes an external string whose bytes isolated-vm counts
      // against the memory limit until a full GC frees it, so batch after batch the count reaches the
      // limit and isolated-vm forces a memory-reducing GC, which also throws away the isolate's
      // optimised code (measured: re-optimisation every ~100k renders, about a third of the sandbox's CPU).
      const batch: [string, string] = [defs.length === 0 ? "[]" : JSON.stringify(defs), itemsJson];
      const options = { arguments: { copy: true }, timeout: this.limits.timeoutMs, result: { copy: true } } as const;
      const result = await slot.render.apply(undefined, [batch], options);
      for (const [tid] of defs) slot.loaded.set(tid, true);
      this.release(slot);
      return result;
    } catch (error) {
      failure = classify(error, slot.isolate);
      this.replace(slot, failure.status === RENDER_STATUS.timeout ? "timeout" : failure.status === RENDER_STATUS.memory ? "memory" : "error");
    }
    const items = JSON.parse(itemsJson) as Array<[number, string, ...unknown[]]>;
    if (items.length === 1) {
      const only = items[0] as [number, string];
      return JSON.stringify([failure.status === 1 ? [only[0], 1, failure.message] : [only[0], failure.status]]);
    }
    const parts = await Promise.all(items.map((item) => this.run([item[1]], codes, JSON.stringify([item]))));
    return `[${parts.map((part) => part.slice(1, -1)).join(",")}]`;
  }

  /** The pool's counters, once the isolates being created (initial or replacements) are ready. */
  async stats(): Promise<IsolatePoolStats> {
    await Promise.allSettled([...this.creating]);
    return {
      created: this.created,
      replaced: this.replaced,
      live: [...this.live.keys()].sort((a, b) => a - b),
      externalBytes: [...this.live.values()].reduce(
        (sum, slot) => sum + (slot.isolate.isDisposed ? 0 : slot.isolate.getHeapStatisticsSync().externally_allocated_size),
        0,
      ),
      recentlyReplaced: this.recent.map(({ slot, reason }) => ({ id: slot.id, reason, disposed: slot.isolate.isDisposed })),
    };
  }

  /** Disposes every isolate. */
  close(): void {
    for (const slot of this.idle.splice(0)) if (!slot.isolate.isDisposed) slot.isolate.dispose();
  }
}

function classify(error: unknown, isolate: ivm.Isolate): Failure {
  const message = error instanceof Error ? error.message : String(error);
  if (/timed out/i.test(message)) return { status: RENDER_STATUS.timeout };
  if (isolate.isDisposed || /memory/i.test(message)) return { status: RENDER_STATUS.memory };
  return { status: 1, message: `sandbox error: ${message.slice(0, 200)}` };
}
