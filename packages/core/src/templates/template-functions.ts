import type { TemplateHostFunctions } from "./host-functions.js";

/** The name of a template function the host implements. */
export type TemplateFunctionName = keyof TemplateHostFunctions;

/** Every template function the host implements, in the order they are documented. */
export const TEMPLATE_FUNCTION_NAMES = [
  "proxy_pass",
  "json",
  "db",
  "inc",
  "dec",
  "set",
  "cache",
  "user",
  "channel",
] as const satisfies readonly TemplateFunctionName[];

/** The Twig filters added on top of nunjucks (Twig semantics where both define a filter). */
export const TWIG_FILTERS = [
  "abs",
  "column",
  "date",
  "default",
  "filter",
  "first",
  "format",
  "join",
  "json_encode",
  "keys",
  "last",
  "length",
  "lower",
  "map",
  "merge",
  "number_format",
  "raw",
  "reduce",
  "replace",
  "reverse",
  "round",
  "slice",
  "sort",
  "split",
  "trim",
  "upper",
  "url_encode",
] as const;

/** The Twig tests added on top of the nunjucks tests. */
export const TWIG_TESTS = ["empty"] as const;
