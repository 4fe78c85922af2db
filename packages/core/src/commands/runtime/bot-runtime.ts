import type { BotAlert, BotAnswer, BotChatLine, BotModule, BotModuleContext, BotModuleStage } from "./bot-module.js";

const STAGES: readonly BotModuleStage[] = ["guard", "observe", "command"];
const MODULE_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;

/**
 * Runs chat lines, alerts and ticks through the registered {@link BotModule}s: guards first (the
 * first that handles a line stops it), then every observer, then the command modules in
 * registration order until one handles the line. A module that throws is logged and skipped: one
 * module's fault never silences the others.
 */
export class BotRuntime {
  readonly #modules: BotModule[] = [];

  constructor(
    readonly context: BotModuleContext,
    modules: readonly BotModule[] = [],
  ) {
    for (const module of modules) this.register(module);
  }

  /** Adds a module after the ones of its stage registered before it. */
  register(module: BotModule): void {
    if (!MODULE_NAME.test(module.name)) throw new TypeError(`bot module name "${module.name}" must be lowercase a-z, 0-9 and -`);
    if (this.#modules.some((m) => m.name === module.name)) throw new TypeError(`bot module "${module.name}" is registered twice`);
    this.#modules.push(module);
  }

  /** The registered modules, in the order a chat line meets them. */
  modules(): BotModule[] {
    return STAGES.flatMap((stage) => this.#modules.filter((m) => m.stage === stage));
  }

  /** The module named `name`, if registered. */
  module<T extends BotModule = BotModule>(name: string): T | undefined {
    return this.#modules.find((m) => m.name === name) as T | undefined;
  }

  /** One chat line through the modules: whether a module handled it, and the answers to send back. */
  async chat(line: BotChatLine): Promise<{ handled: boolean; answers: BotAnswer[] }> {
    for (const stage of STAGES) {
      for (const module of this.#modules) {
        if (module.stage !== stage || !module.onChat) continue;
        let result;
        try {
          result = await module.onChat(line, this.context);
        } catch (err) {
          this.context.log.error({ err, module: module.name, channel: line.channel }, "bot module failed on a chat line");
          continue;
        }
        if (stage !== "observe" && result?.handled) return { handled: true, answers: [...(result.answers ?? [])] };
      }
    }
    return { handled: false, answers: [] };
  }

  /**
   * One platform notification to every module that listens. Each module's `onAlert` starts at
   * once, in order (a synchronous one is done before this returns); the promise settles when every
   * module is done.
   */
  async alert(alert: BotAlert): Promise<void> {
    const failed = (module: BotModule) => (err: unknown) => this.context.log.error({ err, module: module.name, channel: alert.channel }, "bot module failed on an alert");
    const pending: Promise<void>[] = [];
    for (const module of this.modules()) {
      try {
        const handling = module.onAlert?.(alert, this.context);
        if (handling instanceof Promise) pending.push(handling.catch(failed(module)));
      } catch (err) {
        failed(module)(err);
      }
    }
    await Promise.all(pending);
  }

  /** The periodic tick of every module. */
  async tick(): Promise<void> {
    for (const module of this.modules()) {
      if (!module.tick) continue;
      try {
        await module.tick(this.context);
      } catch (err) {
        this.context.log.error({ err, module: module.name }, "bot module tick failed");
      }
    }
  }

  /**
   * Loads a streamer's data in every module. Each module's `load` starts at once, in order, so a
   * module that loads synchronously has its data before this returns; the promise settles when
   * every module is done.
   */
  async load(channel: string): Promise<void> {
    const failed = (module: BotModule) => (err: unknown) => this.context.log.error({ err, module: module.name, channel }, "bot module could not load a channel's data");
    const pending: Promise<void>[] = [];
    for (const module of this.modules()) {
      try {
        const loading = module.load?.(channel, this.context);
        if (loading instanceof Promise) pending.push(loading.catch(failed(module)));
      } catch (err) {
        failed(module)(err);
      }
    }
    await Promise.all(pending);
  }

  /** Drops a streamer's data from every module's memory. */
  forget(channel: string): void {
    for (const module of this.#modules) module.forget?.(channel);
  }

  /** Tells every module that another node changed a streamer's key-value store. */
  storeChanged(channel: string): void {
    for (const module of this.#modules) {
      try {
        module.storeChanged?.(channel);
      } catch (err) {
        this.context.log.error({ err, module: module.name, channel }, "bot module failed on a store change");
      }
    }
  }
}
