import pg from "pg";
import type { Logger } from "pino";
import { z } from "zod";
import { ApiError } from "../errors.js";
import { redactUrl } from "../redact-url.js";
import type { RemoteChange } from "./backend.js";
import type { DocumentKey } from "./partitions.js";

/** An entry's text longer than this (in UTF-16 units) is not announced, only its number. */
const ENTRY_TEXT_MAX = 6_000;
/** The channel every node announces its commits on. */
export const CHANGES_CHANNEL = "ovation_store";
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; announcements are cut below this. */
const MAX_PAYLOAD = 7_000;
/**
 * The advisory-lock key of a database's users: every node holds it shared, `ovation migrate-store`
 * takes it exclusively, so a copy never runs into a database servers are using (and no server
 * starts on a database being copied into).
 */
export const USERS_LOCK_KEY = 710_014;

const payloadSchema = z.object({
  n: z.string(),
  d: z.array(z.tuple([z.string(), z.number()])).default([]),
  a: z.array(z.tuple([z.number(), z.number()])).default([]),
  // The texts of entries in `a` that fit, by their user and number: a node that has them applies
  // them without reading the rows back. (A node of an earlier version ignores `e` and reads them.)
  e: z.array(z.tuple([z.number(), z.number(), z.string()])).default([]),
  k: z.array(z.tuple([z.number(), z.number(), z.number()])).default([]),
  c: z.array(z.tuple([z.number(), z.number()])).default([]),
});
type Payload = z.infer<typeof payloadSchema>;

/** The NOTIFY payloads announcing `change` from `node`: JSON, each under the size PostgreSQL accepts. */
export function announcements(node: string, change: RemoteChange): string[] {
  // Each item is written as JSON once: its text is measured and then joined into the payload as it
  // is (an entry's text, the big item, is not escaped a second time for the whole payload).
  const item = (field: keyof Omit<Payload, "n">, value: unknown): [keyof Omit<Payload, "n">, string, number] => {
    const json = JSON.stringify(value);
    return [field, json, Buffer.byteLength(json)];
  };
  const items = [
    ...change.documents.map((d) => item("d", [d.key, d.version])),
    // An entry's text goes in the same payload as its number, when both fit in one.
    ...change.added.flatMap((a) => [item("a", [a.userId, a.seq]), ...(a.entry !== undefined && a.entry.length <= ENTRY_TEXT_MAX ? [item("e", [a.userId, a.seq, a.entry])] : [])]),
    ...change.acks.map((a) => item("k", [a.userId, a.seq, a.bs])),
    ...change.clears.map((c) => item("c", [c.userId, c.upTo])),
  ];
  const out: string[] = [];
  const name = JSON.stringify(node);
  // The fields in the order first used, as `JSON.stringify({ n: node, ...fields })` would write them.
  let current = new Map<string, string[]>();
  let size = 0;
  const flush = () => {
    if (size > 0) out.push(`{"n":${name}${[...current].map(([field, values]) => `,"${field}":[${values.join(",")}]`).join("")}}`);
    current = new Map();
    size = 0;
  };
  items.forEach(([field, json, bytes], i) => {
    // An entry's number and its text stay together: a payload is started for both if the text
    // would not fit beside what it holds; a text that does not fit alone is left out (read back).
    const next = items[i + 1];
    const withText = field === "a" && next?.[0] === "e" ? next[2] + 1 : 0;
    if (field === "e" && bytes + 64 > MAX_PAYLOAD) return;
    // A document key is at most a few hundred bytes, so one item always fits.
    if (size + bytes + withText + 64 > MAX_PAYLOAD) flush();
    const values = current.get(field);
    if (values) values.push(json);
    else current.set(field, [json]);
    size += bytes + 1;
  });
  flush();
  return out;
}

/**
 * Reads an announcement; null when it is not one (or is this node's own). Every node hears its own
 * announcements too (one per alert it logs): `announcements` writes the node's name first, so
 * those are known by their start and dropped before any JSON or schema work.
 */
export function parse(text: string | undefined, self: string): RemoteChange | null {
  if (text !== undefined && isOwn(text, self)) return null;
  let json: unknown;
  try {
    json = JSON.parse(text ?? "");
  } catch {
    return null;
  }
  const checked = payloadSchema.safeParse(json);
  if (!checked.success || checked.data.n === self) return null;
  const p = checked.data;
  const texts = new Map(p.e.map(([userId, seq, entry]) => [`${userId}/${seq}`, entry]));
  return {
    documents: p.d.map(([key, version]) => ({ key: key as DocumentKey, version })),
    added: p.a.map(([userId, seq]) => {
      const entry = texts.get(`${userId}/${seq}`);
      return entry === undefined ? { userId, seq } : { userId, seq, entry };
    }),
    acks: p.k.map(([userId, seq, bs]) => ({ userId, seq, bs })),
    clears: p.c.map(([userId, upTo]) => ({ userId, upTo })),
  };
}

/** The last node name `isOwn` was asked about and its payloads' start (a listener asks with one name). */
let own = { self: "", head: '{"n":""' };

/** Whether `text` starts as `announcements(self, ...)` writes every payload: `{"n":<self>,` (or `}`). */
function isOwn(text: string, self: string): boolean {
  if (own.self !== self) own = { self, head: `{"n":${JSON.stringify(self)}` };
  const { head } = own;
  const next = text.charCodeAt(head.length);
  return text.startsWith(head) && (next === 44 /* , */ || next === 125 /* } */);
}

/** What the listener calls. */
export interface ListenerHandlers {
  onChange: (change: RemoteChange) => void;
  /** The connection came back after a loss: announcements made meanwhile were missed. */
  onResync: () => void;
  onDisconnect?: () => void;
}

/**
 * A node's own connection to the database, outside the pool: it LISTENs to the other nodes'
 * announcements and holds the users' lock shared. When it drops it is opened again (every
 * `retryMs`) and the node is told to resync.
 */
export class PostgresListener {
  #client: pg.Client | null = null;
  #closed = false;
  #retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly node: string,
    private readonly handlers: ListenerHandlers,
    private readonly options: { logger?: Logger | undefined; retryMs?: number | undefined },
  ) {}

  /** Connects, takes the shared lock and listens; throws OVATION_ERR_STORE_LOCKED during a migration. */
  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: `ovation-node-${this.node}` });
    client.on("error", (error) => this.options.logger?.warn({ err: error }, "PostgreSQL listening connection failed"));
    await client.connect();
    try {
      const { rows } = await client.query<{ locked: boolean }>("select pg_try_advisory_lock_shared($1) as locked", [USERS_LOCK_KEY]);
      if (!rows[0]?.locked) {
        throw new ApiError("OVATION_ERR_STORE_LOCKED", { message: `The database ${redactUrl(this.url)} is being filled by ovation migrate-store; start the server once it is done.` });
      }
      client.on("notification", (message) => {
        if (message.channel !== CHANGES_CHANNEL) return;
        const change = parse(message.payload, this.node);
        if (change) this.handlers.onChange(change);
      });
      await client.query(`listen ${CHANGES_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    client.on("end", () => {
      if (this.#client !== client || this.#closed) return;
      this.#client = null;
      this.options.logger?.warn("lost the PostgreSQL listening connection; reconnecting");
      this.handlers.onDisconnect?.();
      this.#schedule();
    });
    this.#client = client;
  }

  #schedule(): void {
    if (this.#closed || this.#retry) return;
    this.#retry = setTimeout(() => {
      this.#retry = null;
      this.start().then(
        () => {
          this.options.logger?.info("PostgreSQL listening connection back; catching up");
          this.handlers.onResync();
        },
        (error: unknown) => {
          this.options.logger?.warn({ err: error }, "PostgreSQL listening connection still down");
          this.#schedule();
        },
      );
    }, this.options.retryMs ?? 1_000);
  }

  /** The backend process id of the listening connection (tests end it to simulate a lost connection). */
  get processId(): number | null {
    return (this.#client as unknown as { processID?: number } | null)?.processID ?? null;
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => undefined);
  }
}
