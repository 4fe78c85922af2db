import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { OvationError } from "../../errors.js";
import type { ChatEvent } from "../../chat/event.js";
import type { TemplateHostFunctions } from "../host-functions.js";
import type { TemplateVariables } from "../template-sandbox.js";

/** A chat event from `username` with the given badge types. */
export function chatEvent(username = "viewer42", badges: readonly string[] = []): ChatEvent {
  return {
    id: "msg-1",
    type: "message",
    timestamp: 1_763_700_000_000,
    platform: "twitch",
    user: {
      platform_id: "1001",
      username,
      avatar_url: "https://example.com/a.png",
      color: null,
      badges: badges.map((type, i) => ({ type, text: null, id: `b${i}`, count: null })),
    },
    channel: { id: "1", platform_id: "2002", username: "streamer", avatar_url: "https://example.com/s.png" },
    message: "!cmd",
    fragments: [{ type: "text", text: "!cmd" }],
    parent: null,
    attributes: { edited: false, accent: null, action: false, highlight: false },
  };
}

/** Template variables for a message `args.join(" ")`. */
export function variables(args: readonly string[] = ["!cmd"], badges: readonly string[] = []): TemplateVariables {
  const event = { ...chatEvent("viewer42", badges), message: args.join(" ") };
  return {
    command: { command: args[0]?.slice(1) ?? "cmd", response: "", permissions: 0 },
    event,
    args,
    irc: { channel: "#streamer", message: args.join(" ") },
  };
}

/** One call a template made to the test double. */
export interface RecordedCall {
  readonly name: string;
  readonly args: readonly unknown[];
  readonly performed: boolean;
}

function isPrivateTarget(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not a valid URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `scheme ${url.protocol} is not allowed`;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) === 0) return null;
  let address = ipaddr.parse(host);
  if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    address = (address as ipaddr.IPv6).toIPv4Address();
  }
  return address.range() === "unicast" ? null : `address ${host} is in the ${address.range()} range`;
}

/**
 * Test double of the host functions: records every call, refuses private and non-http targets the
 * way the real guarded client does (proxy_pass throws, json answers null), and keeps a tiny store.
 */
export function recordingFunctions(delayMs = 0): TemplateHostFunctions & { calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const store = new Map<string, Record<string, unknown>>();
  const wait = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, delayMs));
  const table = (name: string): Record<string, unknown> => {
    let t = store.get(name);
    if (!t) store.set(name, (t = Object.create(null) as Record<string, unknown>));
    return t;
  };
  return {
    calls,
    async proxy_pass(url) {
      await wait();
      const refusal = isPrivateTarget(url);
      calls.push({ name: "proxy_pass", args: [url], performed: refusal === null });
      if (refusal) throw new OvationError("OVATION_ERR_NET_REFUSED", `proxy_pass refused ${url}: ${refusal}`);
      return `pong from ${url}`;
    },
    async json(method, url) {
      await wait();
      const refusal = isPrivateTarget(url);
      calls.push({ name: "json", args: [method, url], performed: refusal === null });
      return refusal ? null : { method, url, ok: true };
    },
    async db(name) {
      calls.push({ name: "db", args: [name], performed: true });
      return { ...table(name) };
    },
    async inc(name, key, by = 1) {
      calls.push({ name: "inc", args: [name, key, by], performed: true });
      const t = table(name);
      t[key] = Number(t[key] ?? 0) + by;
      return t[key] as number;
    },
    async dec(name, key, by = 1) {
      calls.push({ name: "dec", args: [name, key, by], performed: true });
      const t = table(name);
      t[key] = Number(t[key] ?? 0) - by;
      return t[key] as number;
    },
    async set(name, key, value) {
      calls.push({ name: "set", args: [name, key, value], performed: true });
      table(name)[key] = value;
      return value;
    },
    async cache(key, value, ttl) {
      calls.push({ name: "cache", args: [key, value, ttl], performed: true });
      if (value === undefined) return table("__cache")[key] ?? null;
      table("__cache")[key] = value;
      return value;
    },
    async user(login) {
      calls.push({ name: "user", args: [login], performed: true });
      return login === "alice" ? { id: "42", name: "alice", type: "", description: "hi", view_count: 7 } : null;
    },
    async channel(id) {
      calls.push({ name: "channel", args: [id], performed: true });
      return id === "42" ? { id: "42", name: "alice", url: "https://twitch.tv/alice", language: "en", title: "t", game: "g" } : null;
    },
  };
}

/**
 * Time limit of the sandboxes in corpus tests (what templates answer, not how fast): generous, so a
 * loaded machine never turns a correct render into a timeout. The limits tests keep the real 50 ms.
 */
export const CORPUS_TIMEOUT_MS = 5_000;
