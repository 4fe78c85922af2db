/**
 * @ovation/core/templates: the Twig-syntax template sandbox. Renders run in a child process inside
 * isolated-vm isolates; isolated-vm is an optional peer dependency (install it to render templates;
 * a missing one is reported as OVATION_ERR_TEMPLATE_SANDBOX_UNAVAILABLE when the sandbox starts).
 */
export type { TemplateHostFunctions } from "./host-functions.js";
export { TemplateSandbox } from "./template-sandbox.js";
export type {
  CompiledTemplate,
  TemplateVariables,
  TemplateSandboxOptions,
  TemplateSandboxStats,
} from "./template-sandbox.js";
export type { IsolatePoolStats, IsolateReplacementReason } from "./isolate-pool.js";
export { DEFAULT_SANDBOX_LIMITS } from "./sandbox-limits.js";
export { TEMPLATE_COMPILE_LIMITS } from "./compile-bounds.js";
export { FAIR_SCHEDULING } from "./fair-queue.js";
export type { TemplateSandboxLimits } from "./sandbox-limits.js";
export { TemplateSyntaxError, TemplateRenderError, TEMPLATE_ERROR_CODES } from "./template-errors.js";
export type { TemplateFailure } from "./template-errors.js";
export { checkTemplateSyntax } from "./check-template-syntax.js";
export type { TemplateSyntaxCheck } from "./check-template-syntax.js";
export { isPlainText } from "./plain-text.js";
export { capOutput } from "./output-cap.js";
export { MAX_TEMPLATE_SOURCE_LENGTH } from "./twig-compiler.js";
export { TEMPLATE_FUNCTION_NAMES, TWIG_FILTERS } from "./function-names.js";
export type { TemplateFunctionName } from "./function-names.js";
export { SANDBOX_UNAVAILABLE_CODE, assertIsolatedVmInstalled } from "./isolated-vm-check.js";
