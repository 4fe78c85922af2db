import type { TemplateHostFunctions } from "./host-functions.js";
import type { TemplateFunctionName } from "./function-names.js";

function text(name: TemplateFunctionName, args: readonly unknown[], index: number, what: string): string {
  const value = args[index];
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  throw new TypeError(`${name}(): ${what} (argument ${index + 1}) must be a string`);
}

function optionalNumber(name: TemplateFunctionName, args: readonly unknown[], index: number, what: string): number | undefined {
  const value = args[index];
  if (value === undefined || value === null) return undefined;
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof number === "number" && Number.isFinite(number)) return number;
  throw new TypeError(`${name}(): ${what} (argument ${index + 1}) must be a number`);
}

/**
 * Calls the host's implementation of template function `name` with the arguments a template passed
 * (copied out of the sandbox as JSON), checking and converting each argument first.
 */
export function callTemplateFunction(
  functions: TemplateHostFunctions,
  name: TemplateFunctionName,
  args: readonly unknown[],
): Promise<unknown> {
  try {
    switch (name) {
      case "proxy_pass":
        return functions.proxy_pass(text(name, args, 0, "url"));
      case "json":
        return functions.json(text(name, args, 0, "method"), text(name, args, 1, "url"));
      case "db":
        return functions.db(text(name, args, 0, "table"));
      case "inc":
        return functions.inc(text(name, args, 0, "table"), text(name, args, 1, "key"), optionalNumber(name, args, 2, "by"));
      case "dec":
        return functions.dec(text(name, args, 0, "table"), text(name, args, 1, "key"), optionalNumber(name, args, 2, "by"));
      case "set":
        return functions.set(text(name, args, 0, "table"), text(name, args, 1, "key"), args[2] ?? null);
      case "cache":
        if (args.length < 2) return functions.cache(text(name, args, 0, "key"));
        return functions.cache(text(name, args, 0, "key"), args[1] ?? null, optionalNumber(name, args, 2, "ttl"));
      case "user":
        return functions.user(text(name, args, 0, "login"));
      case "channel":
        return functions.channel(text(name, args, 0, "id"));
    }
  } catch (error) {
    return Promise.reject(error);
  }
}
