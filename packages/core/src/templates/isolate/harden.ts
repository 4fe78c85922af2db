/**
 * Hardening of the isolate: no code from strings, and everything a template can reach is frozen.
 */

/** Makes every path to a Function constructor end in a function that throws, and removes `eval`. */
export function blockCodeGeneration(): void {
  const blocked = function (): never {
    throw new TypeError("code generation from strings is not available in templates");
  };
  const samples: unknown[] = [function () {}, function* () {}, async function () {}, async function* () {}];
  for (const f of samples) {
    Object.defineProperty(Object.getPrototypeOf(f), "constructor", { value: blocked, writable: false, configurable: false, enumerable: false });
  }
  delete (globalThis as { eval?: unknown }).eval;
}

/**
 * Properties a later object may want to shadow (toString on a SafeString, length, constructor...)
 * become accessors whose setter defines an own property on the receiver, so freezing a prototype
 * does not break assignment on objects that inherit from it.
 */
const OVERRIDABLE = ["constructor", "toString", "valueOf", "toLocaleString", "toJSON", "length", "name", "message", "stack", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "then"];

function allowOverride(obj: object): void {
  for (const key of OVERRIDABLE) {
    const desc = Object.getOwnPropertyDescriptor(obj, key);
    if (!desc || !("value" in desc) || !desc.writable || !desc.configurable) continue;
    const value: unknown = desc.value;
    // Method shorthand: these functions have no prototype object to harden in turn.
    const pair = {
      get(): unknown {
        return value;
      },
      set(this: object, v: unknown): void {
        if (this === obj) throw new TypeError("cannot assign to read only property " + key);
        Object.defineProperty(this, key, { value: v, writable: true, enumerable: true, configurable: true });
      },
    };
    Object.defineProperty(obj, key, { get: pair.get, set: pair.set, enumerable: desc.enumerable, configurable: false });
  }
}

const seen = new Set<unknown>();

/** Freezes `root` and everything reachable from it (prototypes, values, accessors). */
export function harden(root: unknown): void {
  const todo: unknown[] = [root];
  while (todo.length) {
    const obj = todo.pop();
    if (obj === null || (typeof obj !== "object" && typeof obj !== "function") || seen.has(obj)) continue;
    seen.add(obj);
    allowOverride(obj);
    Object.freeze(obj);
    todo.push(Object.getPrototypeOf(obj));
    for (const key of Reflect.ownKeys(obj)) {
      const desc = Object.getOwnPropertyDescriptor(obj, key);
      if (!desc) continue;
      if ("value" in desc) todo.push(desc.value);
      if (desc.get) todo.push(desc.get);
      if (desc.set) todo.push(desc.set);
    }
  }
}
