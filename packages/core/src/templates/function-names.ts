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
  "batch",
  "column",
  "date",
  "default",
  "e",
  "escape",
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
  "striptags",
  "trim",
  "upper",
  "url_encode",
] as const;

/** The Twig tests added on top of the nunjucks tests. */
export const TWIG_TESTS = ["empty"] as const;

/**
 * Argument names of the filters that accept named arguments (Twig's names, after the filtered
 * value): `join(glue=', ')`, `round(method='ceil')`. Named arguments of other filters are refused.
 */
export const TWIG_FILTER_SIGNATURES: Readonly<Record<string, readonly string[]>> = {
  abs: [],
  batch: ["size", "fill", "preserve_keys"],
  column: ["name", "index"],
  date: ["format", "timezone"],
  default: ["default"],
  e: ["strategy", "charset"],
  escape: ["strategy", "charset"],
  filter: ["arrow"],
  first: [],
  format: [],
  join: ["glue", "and"],
  json_encode: ["options"],
  keys: [],
  last: [],
  length: [],
  lower: [],
  map: ["arrow"],
  merge: ["other"],
  number_format: ["decimal", "decimal_point", "thousand_sep"],
  reduce: ["arrow", "initial"],
  replace: ["from", "to"],
  reverse: ["preserve_keys"],
  round: ["precision", "method"],
  slice: ["start", "length", "preserve_keys"],
  sort: ["arrow"],
  split: ["delimiter", "limit"],
  striptags: ["allowable_tags"],
  trim: ["character_mask", "side"],
  upper: [],
  url_encode: [],
};

/** Argument names of the functions that accept named arguments: `range(low=1, high=5, step=2)`. */
export const TWIG_FUNCTION_SIGNATURES: Readonly<Record<string, readonly string[]>> = {
  range: ["low", "high", "step"],
  random: ["values", "max"],
  cycle: ["values", "position"],
};
