import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { WebSocketServer } from "ws";
import type { WebSocket } from "ws";

/**
 * The smallest Twitch chat server tmi.js connects to (IRC over WebSocket on loopback): the login
 * welcome, JOIN with ROOMSTATE, PING/PONG, and lines published to the one channel. The Twitch
 * plugin's own tests use a fuller fake; this one checks the server's wiring.
 */
export class MiniTwitchChat {
  readonly received: string[] = [];
  readonly #wss: WebSocketServer;
  readonly #joined = new Set<WebSocket>();

  private constructor(wss: WebSocketServer, channel: string, roomId: string) {
    this.#wss = wss;
    wss.on("connection", (ws) => {
      ws.on("message", (data) => {
        for (const line of data.toString().split("\r\n").filter((l) => l !== "")) {
          this.received.push(line);
          const send = (text: string) => ws.send(`${text}\r\n`);
          if (line.startsWith("NICK ")) {
            const nick = line.slice(5);
            for (const code of ["001", "002", "003", "004", "375", "372", "376"]) send(`:tmi.twitch.tv ${code} ${nick} :-`);
          } else if (line === `JOIN #${channel}`) {
            send(`:tmi.twitch.tv USERSTATE #${channel}`);
            send(`@room-id=${roomId} :tmi.twitch.tv ROOMSTATE #${channel}`);
            this.#joined.add(ws);
          } else if (line.startsWith("PING")) {
            // As plugins/twitch's fake: no prefix, the answer tmi.js counts (else it reconnects every 70 s).
            send("PONG :tmi.twitch.tv");
          }
        }
      });
      ws.on("close", () => this.#joined.delete(ws));
    });
  }

  static async start(channel: string, roomId: string): Promise<MiniTwitchChat> {
    const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, handleProtocols: () => "irc" });
    await once(wss, "listening");
    return new MiniTwitchChat(wss, channel, roomId);
  }

  get port(): number {
    return (this.#wss.address() as AddressInfo).port;
  }

  /** Sends a raw line to every connection that joined the channel. */
  publish(line: string): void {
    for (const ws of this.#joined) ws.send(`${line}\r\n`);
  }

  /** Resolves with the first received line matching, polling up to `timeoutMs`. */
  async waitFor(predicate: (line: string) => boolean, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const line = this.received.find(predicate);
      if (line !== undefined) return line;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error("the chat server did not receive the expected line");
  }

  async close(): Promise<void> {
    for (const ws of this.#wss.clients) ws.terminate();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
  }
}
