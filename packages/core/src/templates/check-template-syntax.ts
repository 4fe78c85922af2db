import type { TemplateSyntaxError } from "./template-errors.js";
import { TemplateSyntaxError as SyntaxErrorClass } from "./template-errors.js";
import { checkCompileBounds, checkCompiledCode } from "./compile-bounds.js";
import { compileTwig } from "./twig-compiler.js";

/** The outcome of {@link checkTemplateSyntax}. */
export type TemplateSyntaxCheck = { readonly ok: true } | { readonly ok: false; readonly error: TemplateSyntaxError };

/**
 * Checks that `source` compiles within the compile limits (what a command save does), without rendering it. A failure carries
 * the `TemplateSyntaxError` with its 1-based line and column.
 */
export function checkTemplateSyntax(source: string): TemplateSyntaxCheck {
  try {
    checkCompileBounds(source);
    checkCompiledCode(compileTwig(source).code);
    return { ok: true };
  } catch (error) {
    if (error instanceof SyntaxErrorClass) return { ok: false, error };
    throw error;
  }
}
