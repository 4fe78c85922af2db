/** `T` without undefined values: the keys that may hold undefined become optional. */
export type DefinedKeys<T extends object> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/**
 * A copy of `object` without its undefined keys, for options handed to code that tells an absent key
 * from one set to undefined (a default applies only to an absent key):
 * `definedKeys({ apiUrl: settings.apiUrl })` instead of `...(settings.apiUrl !== undefined ? { apiUrl: settings.apiUrl } : {})`.
 * Only undefined is dropped: null, 0, false and "" stay.
 */
export function definedKeys<T extends object>(object: T): DefinedKeys<T> {
  const defined: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) if (value !== undefined) defined[key] = value;
  return defined as DefinedKeys<T>;
}
