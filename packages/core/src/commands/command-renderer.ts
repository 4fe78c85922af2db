import type { ChatEvent } from "../chat/event.js";
import type { TemplateHostFunctions } from "../templates/host-functions.js";
import type { BotCommand } from "./command-record.js";

/** The variables of a command template (docs/commands.md, "Template variables"). */
export interface CommandTemplateVariables {
  /** The command record (or the record of the module that speaks: a timer, for example). */
  command: BotCommand | Readonly<Record<string, unknown>>;
  /** The chat event. */
  event: ChatEvent;
  /** The words of the message; the command as typed (with its `!`) at index 0. */
  args: string[];
  /** The raw channel name and the raw message. */
  irc: { channel: string; message: string };
}

/**
 * What the runtime needs from a template engine. `TemplateSandbox` (templates/) implements it with
 * isolated-vm; the bench implements it with bare nunjucks for comparison.
 */
export interface CommandRenderer {
  /** True when `source` has no template syntax, so it is sent as it is (default: {@link looksPlain}). */
  isPlainText?(source: string): boolean;
  /** Compiles once (when the command is saved); throws a syntax error with line and column. */
  compile(source: string): unknown;
  /** Renders a compiled template; rejects with a clear error when the template fails or hits a limit. */
  render(compiled: unknown, variables: CommandTemplateVariables, functions: TemplateHostFunctions): Promise<string>;
}

/** True when `source` contains no `{{`, `{%` or `{#` (used when no renderer is configured). */
export function looksPlain(source: string): boolean {
  return !/\{[{%#]/.test(source);
}
