import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer } from "node:net";
import type { AddressInfo, Server, Socket } from "node:net";
import { createInterface } from "node:readline";
import type { ClientLine, FakeChatUser, ServerLine } from "./wire.js";

/** What a connected client said with `op: "say"`. */
export type SaidLine = Extract<ClientLine, { op: "say" }>;

/**
 * A small FakeChat server on 127.0.0.1 for trying and testing the plugin: clients join a channel,
 * the test (or a person) pushes chat messages and follows, and reads what the bot said.
 */
export class FakeChatServer {
  readonly said: SaidLine[] = [];
  readonly #clients = new Map<Socket, string | null>();
  readonly #waiters: ((line: SaidLine) => void)[] = [];
  readonly #joinWaiters: (() => void)[] = [];

  private constructor(private readonly server: Server) {}

  /** Starts a server on a free port of 127.0.0.1. */
  static async start(port = 0): Promise<FakeChatServer> {
    const server = createServer();
    const fake = new FakeChatServer(server);
    server.on("connection", (socket) => fake.#accept(socket));
    server.listen(port, "127.0.0.1");
    await once(server, "listening");
    return fake;
  }

  /** `tcp://127.0.0.1:<port>`, the plugin's `url` setting. */
  get url(): string {
    return `tcp://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves once a client has joined `channel`. */
  async joined(channel: string): Promise<void> {
    while (![...this.#clients.values()].includes(channel)) await new Promise<void>((resolve) => this.#joinWaiters.push(resolve));
  }

  /** Sends a chat message from `user` to every client of `channel`; returns its id. */
  message(channel: string, user: FakeChatUser, text: string): string {
    const id = randomUUID();
    this.#broadcast(channel, { op: "message", id, channel, user, text, ts: Date.now() });
    return id;
  }

  /** Sends a follow of `user` to every client of `channel`; returns its id. */
  follow(channel: string, user: FakeChatUser): string {
    const id = randomUUID();
    this.#broadcast(channel, { op: "follow", id, channel, user, ts: Date.now() });
    return id;
  }

  /** The next line a client says (or one already said and not yet taken). */
  nextSay(timeoutMs = 10_000): Promise<SaidLine> {
    const ready = this.said.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("FakeChat: nothing said in time")), timeoutMs);
      this.#waiters.push((line) => {
        clearTimeout(timer);
        resolve(line);
      });
    });
  }

  /** Closes every client and the server. */
  async close(): Promise<void> {
    for (const socket of this.#clients.keys()) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  #broadcast(channel: string, line: ServerLine): void {
    for (const [socket, joined] of this.#clients) if (joined === channel) socket.write(`${JSON.stringify(line)}\n`);
  }

  #accept(socket: Socket): void {
    this.#clients.set(socket, null);
    socket.on("close", () => this.#clients.delete(socket));
    socket.on("error", () => socket.destroy());
    createInterface({ input: socket }).on("line", (text) => {
      let line: ClientLine;
      try {
        line = JSON.parse(text) as ClientLine;
      } catch {
        socket.destroy();
        return;
      }
      if (line.op === "join" && typeof line.channel === "string") {
        this.#clients.set(socket, line.channel);
        socket.write(`${JSON.stringify({ op: "hello", channel: line.channel } satisfies ServerLine)}\n`);
        for (const wake of this.#joinWaiters.splice(0)) wake();
      } else if (line.op === "say" && typeof line.text === "string") {
        const waiter = this.#waiters.shift();
        if (waiter) waiter(line);
        else this.said.push(line);
      }
    });
  }
}
