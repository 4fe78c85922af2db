import type { GuardedHttpClient } from "../net/guarded-client.js";
import { fetchJson, proxyPass } from "../net/template-calls.js";
import type { PlatformLookups } from "../plugins/contract.js";
import type { TemplateHostFunctions } from "../templates/host-functions.js";
import { COMMAND_ERROR_CODES, CommandError } from "./command-error.js";
import { storedNumber, type KeyValueStore } from "./key-value-store.js";
import { TEMPLATE_CACHE_LIMITS, type TemplateCacheStore } from "./template-cache.js";

/** Bounds of the template functions; documented in docs/commands.md. */
export const TEMPLATE_FUNCTION_LIMITS = {
  /** Host function calls one render may make (db, inc, dec, set, cache, user, channel, json, proxy_pass). */
  callsPerRender: 25,
  tableNameLength: 64,
  keyLength: 128,
  /** Largest stored value, as JSON characters. */
  valueJsonLength: 2_048,
  /** Fields per table; a new field beyond it is refused. */
  fieldsPerTable: 1_000,
  /** Largest |n| of inc/dec. */
  maxStep: 1_000_000_000,
} as const;

/** What the template functions of one render are bound to. */
export interface TemplateFunctionsOptions {
  /** The Ovation channel id: tables, cache and the outbound rate limit are per channel. */
  channel: string;
  store: KeyValueStore;
  cache: TemplateCacheStore;
  /** The guarded client; without it `proxy_pass` and `json` are refused. */
  http?: GuardedHttpClient;
  /** The channel owner's secret that signs outbound calls. */
  signingSecret: string;
  /** Platform lookups for `user()` and `channel()`; without them both return null. */
  lookups?: PlatformLookups;
  /** What `proxy_pass` sends: the chat event, the command record and the args. */
  payload: { event: unknown; command: unknown; args: readonly string[] };
}

function fail(message: string): never {
  throw new CommandError(COMMAND_ERROR_CODES.templateFunction, message);
}

const TABLE_NAME = /^[A-Za-z0-9_.-]+$/;
/** Names a host store built on plain objects (lowdb, JSON) would turn into prototype writes. */
const RESERVED_NAMES = new Set(["__proto__", "prototype", "constructor"]);

function checkTable(fn: string, table: unknown): string {
  if (typeof table !== "string" || !TABLE_NAME.test(table) || table.length > TEMPLATE_FUNCTION_LIMITS.tableNameLength) {
    fail(`${fn}: the table name must be 1-${TEMPLATE_FUNCTION_LIMITS.tableNameLength} characters of A-Z, a-z, 0-9, _ . -`);
  }
  if (RESERVED_NAMES.has(table)) fail(`${fn}: "${table}" cannot be used as a table name`);
  return table;
}

function checkKey(fn: string, key: unknown): string {
  const text = typeof key === "number" && Number.isFinite(key) ? String(key) : key;
  if (typeof text !== "string" || text.length === 0 || text.length > TEMPLATE_FUNCTION_LIMITS.keyLength) {
    fail(`${fn}: the key must be a string of 1-${TEMPLATE_FUNCTION_LIMITS.keyLength} characters`);
  }
  if (RESERVED_NAMES.has(text)) fail(`${fn}: "${text}" cannot be used as a key`);
  return text;
}

function checkValue(fn: string, value: unknown): unknown {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    fail(`${fn}: the value must be plain data (text, number, boolean, list or object)`);
  }
  if (json === undefined) fail(`${fn}: the value must be plain data (text, number, boolean, list or object)`);
  if (json.length > TEMPLATE_FUNCTION_LIMITS.valueJsonLength) {
    fail(`${fn}: the value is larger than ${TEMPLATE_FUNCTION_LIMITS.valueJsonLength} characters`);
  }
  return JSON.parse(json) as unknown;
}

function checkStep(fn: string, by: unknown): number {
  if (by === undefined || by === null) return 1;
  const n = typeof by === "string" ? Number(by) : by;
  if (typeof n !== "number" || !Number.isFinite(n) || Math.abs(n) > TEMPLATE_FUNCTION_LIMITS.maxStep) {
    fail(`${fn}: the amount must be a number between -${TEMPLATE_FUNCTION_LIMITS.maxStep} and ${TEMPLATE_FUNCTION_LIMITS.maxStep}`);
  }
  return n;
}

/**
 * The template functions of one render, bound to a channel: `db/inc/dec/set` on the host's
 * key-value store, `cache` on the in-process cache, `proxy_pass/json` through the guarded client
 * (signed with the channel owner's secret), `user/channel` through the platform lookups. Each call
 * checks its arguments and counts against a per-render budget.
 */
export function createTemplateFunctions(options: TemplateFunctionsOptions): TemplateHostFunctions {
  const { channel, store, cache } = options;
  let calls = 0;
  const spend = (fn: string): void => {
    calls++;
    if (calls > TEMPLATE_FUNCTION_LIMITS.callsPerRender) {
      fail(`${fn}: a template may call functions at most ${TEMPLATE_FUNCTION_LIMITS.callsPerRender} times per run`);
    }
  };
  const writeField = async (fn: string, table: string, key: string, change: (current: unknown) => unknown): Promise<unknown> => {
    const fields = await store.table(channel, table);
    if (!Object.hasOwn(fields, key) && Object.keys(fields).length >= TEMPLATE_FUNCTION_LIMITS.fieldsPerTable) {
      fail(`${fn}: table "${table}" already has ${TEMPLATE_FUNCTION_LIMITS.fieldsPerTable} fields`);
    }
    return store.update(channel, table, key, change);
  };
  const step = async (fn: "inc" | "dec", table: unknown, key: unknown, by: unknown): Promise<number> => {
    spend(fn);
    const name = checkTable(fn, table);
    const field = checkKey(fn, key);
    const amount = checkStep(fn, by) * (fn === "dec" ? -1 : 1);
    let refused = false;
    const result = (await writeField(fn, name, field, (current) => {
      const next = storedNumber(current) + amount;
      if (Math.abs(next) <= Number.MAX_SAFE_INTEGER) return next;
      refused = true;
      return current;
    })) as number;
    // Past 2^53 - 1 a number no longer holds every integer and increments would be lost.
    if (refused) fail(`${fn}: ${name}.${field} would pass 2^53 - 1 (${Number.MAX_SAFE_INTEGER}); it is unchanged`);
    return result;
  };
  const context = () => ({ channel, signingSecret: options.signingSecret });
  const client = (fn: string): GuardedHttpClient => options.http ?? fail(`${fn}: outbound calls are disabled on this bot`);

  return {
    async proxy_pass(url) {
      spend("proxy_pass");
      if (typeof url !== "string") fail("proxy_pass: the URL must be a string");
      return proxyPass(client("proxy_pass"), context(), url, options.payload);
    },
    async json(method, url) {
      spend("json");
      if (typeof method !== "string" || typeof url !== "string") fail("json: call it as json(method, url) with two strings");
      return fetchJson(client("json"), context(), method, url);
    },
    async db(table) {
      spend("db");
      return store.table(channel, checkTable("db", table));
    },
    inc: (table, key, by) => step("inc", table, key, by),
    dec: (table, key, by) => step("dec", table, key, by),
    async set(table, key, value) {
      spend("set");
      const name = checkTable("set", table);
      const field = checkKey("set", key);
      const stored = checkValue("set", value);
      return writeField("set", name, field, () => stored);
    },
    async cache(key, value, ttlSeconds) {
      spend("cache");
      const field = checkKey("cache", key);
      if (value === undefined) return cache.get(channel, field);
      const ttl = ttlSeconds ?? TEMPLATE_CACHE_LIMITS.defaultTtlSeconds;
      if (typeof ttl !== "number" || !Number.isInteger(ttl) || ttl < 1 || ttl > TEMPLATE_CACHE_LIMITS.maxTtlSeconds) {
        fail(`cache: the lifetime must be a whole number of seconds from 1 to ${TEMPLATE_CACHE_LIMITS.maxTtlSeconds}`);
      }
      const stored = checkValue("cache", value);
      await cache.set(channel, field, stored, ttl);
      return stored;
    },
    async user(login) {
      spend("user");
      if (typeof login !== "string" || login.length === 0 || login.length > 64) fail("user: the login must be a string of 1-64 characters");
      return (await options.lookups?.user(login)) ?? null;
    },
    async channel(id) {
      spend("channel");
      if (typeof id !== "string" || id.length === 0 || id.length > 64) fail("channel: the id must be a string of 1-64 characters");
      return (await options.lookups?.channel(id)) ?? null;
    },
  };
}
