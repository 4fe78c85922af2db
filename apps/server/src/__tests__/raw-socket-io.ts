import { readFileSync } from "node:fs";
import { WebSocket } from "ws";

/** A frame the server sent (engine.io packet text), or the end of the connection. */
export type RawFrame = { text: string } | { closed: true };

/**
 * A socket.io client that speaks the wire protocol (engine.io v4 over a WebSocket) by hand, so a
 * test can send any bytes as event arguments: values no JSON encoder would produce, payloads past
 * the buffer limit, nesting that would overflow a client's encoder.
 */
export class RawSocketIo {
  readonly #frames: RawFrame[] = [];
  readonly #waiters: Array<(frame: RawFrame) => void> = [];
  #closed = false;

  private constructor(
    private readonly ws: WebSocket,
    /** The namespace prefix of packets (`/console,`), empty for the main namespace. */
    private readonly prefix: string,
  ) {
    ws.on("message", (data: Buffer) => {
      const text = data.toString("utf8");
      if (text === "2") {
        ws.send("3");
        return;
      }
      this.#push({ text });
    });
    ws.on("close", () => {
      this.#closed = true;
      this.#push({ closed: true });
    });
    ws.on("error", () => undefined);
  }

  #push(frame: RawFrame): void {
    const waiter = this.#waiters.shift();
    if (waiter) waiter(frame);
    else this.#frames.push(frame);
  }

  /** Whether the server closed the connection. */
  get closed(): boolean {
    return this.#closed;
  }

  /** The next frame, or `{closed}`; rejects after `timeoutMs`. */
  next(timeoutMs = 10_000): Promise<RawFrame> {
    const queued = this.#frames.shift();
    if (queued) return Promise.resolve(queued);
    if (this.#closed) return Promise.resolve({ closed: true });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no frame within ${timeoutMs} ms`)), timeoutMs);
      this.#waiters.push((frame) => {
        clearTimeout(timer);
        resolve(frame);
      });
    });
  }

  /**
   * Opens a connection and connects to `namespace` with `auth`; resolves with the client and the
   * server's CONNECT answer (`40...` accepted, `44...` refused).
   */
  static async open(baseUrl: string, namespace: string, auth: Record<string, unknown> | null): Promise<{ client: RawSocketIo; answer: string }> {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, "ws")}/socket.io/?EIO=4&transport=websocket`);
    const prefix = namespace === "/" ? "" : `${namespace},`;
    const client = new RawSocketIo(ws, prefix);
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    const open = await client.next();
    if (!("text" in open) || !open.text.startsWith("0")) throw new Error("no engine.io open packet");
    ws.send(`40${prefix}${auth === null ? "" : JSON.stringify(auth)}`);
    const answer = await client.next();
    if (!("text" in answer)) throw new Error("closed before the namespace answered");
    return { client, answer: answer.text };
  }

  /** Sends an EVENT packet whose arguments are the raw JSON text `argsJson` (without brackets); `ackId` asks for an answer. */
  sendEvent(event: string, argsJson: string, ackId?: number): void {
    const args = argsJson === "" ? "" : `,${argsJson}`;
    this.ws.send(`42${this.prefix}${ackId ?? ""}[${JSON.stringify(event)}${args}]`);
  }

  /** Closes the connection. */
  close(): void {
    this.ws.close();
  }
}

interface HostileEntry {
  name: string;
  value?: unknown;
  args?: unknown[];
  make?: { repeat?: [string, number]; deep?: number; deepArray?: number };
}

/** One hostile argument list of fixtures/realtime/hostile-payloads.json, as raw JSON text. */
export interface HostilePayload {
  name: string;
  argsJson: string;
}

/** The hostile corpus of socket events: the events per namespace and the argument lists. */
export function loadHostilePayloads(): { events: { main: string[]; console: string[] }; payloads: HostilePayload[] } {
  const file = JSON.parse(readFileSync(new URL("../../../../fixtures/realtime/hostile-payloads.json", import.meta.url), "utf8")) as {
    events: { main: string[]; console: string[] };
    values: HostileEntry[];
  };
  const payloads = file.values.map((entry): HostilePayload => {
    if (entry.args) return { name: entry.name, argsJson: entry.args.map((a) => JSON.stringify(a)).join(",") };
    const make = entry.make;
    if (make?.repeat) return { name: entry.name, argsJson: JSON.stringify(make.repeat[0].repeat(make.repeat[1])) };
    if (make?.deep !== undefined) return { name: entry.name, argsJson: `${'{"a":'.repeat(make.deep)}0${"}".repeat(make.deep)}` };
    if (make?.deepArray !== undefined) return { name: entry.name, argsJson: `${"[".repeat(make.deepArray)}${"]".repeat(make.deepArray)}` };
    return { name: entry.name, argsJson: JSON.stringify(entry.value) };
  });
  return { events: file.events, payloads };
}
