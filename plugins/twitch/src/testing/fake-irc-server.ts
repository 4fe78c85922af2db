import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { WebSocketServer } from "ws";
import type { WebSocket } from "ws";

interface Connection {
  /** Numbered from 1 in the order the connections came. */
  id: number;
  ws: WebSocket;
  nick: string | null;
  pass: string | null;
  joined: Set<string>;
}

/**
 * A Twitch chat server over WebSocket on loopback that speaks the IRC dialect tmi.js expects:
 * CAP REQ/ACK, PASS/NICK with the 001-376 welcome, JOIN (JOIN echo, USERSTATE, ROOMSTATE with the
 * room id), PING/PONG, RECONNECT, and tagged lines published to a channel. Lines published while
 * no connection has joined the channel are queued and delivered on the next JOIN; `replayOnJoin`
 * re-sends the last lines of the channel on JOIN, as an overlapping server hand-over would.
 */
export class FakeIrcServer {
  readonly received: string[] = [];
  readonly connections = new Set<Connection>();
  /** Every JOIN and PART of a channel, by connection, as answered (`joined` false: no such room, no ROOMSTATE). */
  readonly membership: Array<{ at: number; connection: number; command: "JOIN" | "PART"; channel: string; joined: boolean }> = [];
  replayOnJoin = 0;
  /** Called with every line a client sends (benches time answers with it). */
  onLine: ((line: string) => void) | null = null;
  readonly #wss: WebSocketServer;
  readonly #history = new Map<string, string[]>();
  readonly #queued = new Map<string, string[]>();
  readonly #roomIds: Map<string, string>;
  connectionCount = 0;

  private constructor(wss: WebSocketServer, roomIds: Map<string, string>) {
    this.#wss = wss;
    this.#roomIds = roomIds;
    wss.on("connection", (ws) => this.#accept(ws));
  }

  /** Starts a server on 127.0.0.1 on `port` (default a free one); `roomIds` maps channel logins to room ids. */
  static async start(roomIds: Record<string, string>, port = 0): Promise<FakeIrcServer> {
    const wss = new WebSocketServer({ host: "127.0.0.1", port, handleProtocols: () => "irc" });
    await once(wss, "listening");
    return new FakeIrcServer(wss, new Map(Object.entries(roomIds)));
  }

  get port(): number {
    return (this.#wss.address() as AddressInfo).port;
  }

  /** Sends a line to every connection that joined `channel` (queued while there is none). */
  publish(channel: string, line: string): void {
    const history = this.#history.get(channel) ?? [];
    history.push(line);
    this.#history.set(channel, history);
    const targets = [...this.connections].filter((c) => c.joined.has(channel) && c.ws.readyState === c.ws.OPEN);
    if (targets.length === 0) {
      const queue = this.#queued.get(channel) ?? [];
      queue.push(line);
      this.#queued.set(channel, queue);
      return;
    }
    for (const c of targets) c.ws.send(`${line}\r\n`);
  }

  /** Makes a channel exist from now on (a JOIN of it is answered with its ROOMSTATE). */
  addRoom(channel: string, roomId: string): void {
    this.#roomIds.set(channel, roomId);
  }

  /** Asks every connection to reconnect (Twitch's RECONNECT) and stops routing to them. */
  reconnect(): void {
    for (const c of this.connections) {
      c.ws.send(":tmi.twitch.tv RECONNECT\r\n");
      c.joined.clear();
    }
  }

  /** Resolves once a received line matches, or rejects after `timeoutMs`. */
  async waitFor(predicate: (line: string) => boolean, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const line = this.received.find(predicate);
      if (line !== undefined) return line;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error("the fake IRC server did not receive the expected line");
  }

  async close(): Promise<void> {
    for (const c of this.connections) c.ws.terminate();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
  }

  #accept(ws: WebSocket): void {
    this.connectionCount++;
    const connection: Connection = { id: this.connectionCount, ws, nick: null, pass: null, joined: new Set() };
    this.connections.add(connection);
    ws.on("close", () => this.connections.delete(connection));
    ws.on("message", (data) => {
      for (const line of data.toString().split("\r\n")) {
        if (line !== "") this.#line(connection, line);
      }
    });
  }

  #send(c: Connection, line: string): void {
    c.ws.send(`${line}\r\n`);
  }

  #line(c: Connection, line: string): void {
    this.received.push(line);
    this.onLine?.(line);
    const [command = "", ...rest] = line.split(" ");
    const argument = rest.join(" ");
    switch (command) {
      case "CAP":
        this.#send(c, `:tmi.twitch.tv CAP * ACK :${argument.replace(/^REQ :/, "")}`);
        return;
      case "PASS":
        c.pass = argument;
        return;
      case "NICK": {
        c.nick = argument;
        if (c.pass !== null && c.pass.startsWith("oauth:bad")) {
          this.#send(c, ":tmi.twitch.tv NOTICE * :Login authentication failed");
          return;
        }
        for (const [code, text] of [
          ["001", "Welcome, GLHF!"],
          ["002", "Your host is tmi.twitch.tv"],
          ["003", "This server is rather new"],
          ["004", "-"],
          ["375", "-"],
          ["372", "You are in a maze of twisty passages, all alike."],
          ["376", ">"],
        ] as const) {
          this.#send(c, `:tmi.twitch.tv ${code} ${argument} :${text}`);
        }
        return;
      }
      case "JOIN": {
        for (const target of argument.split(",")) {
          const channel = target.replace(/^#/, "");
          const nick = c.nick ?? "justinfan1";
          this.#send(c, `:${nick}!${nick}@${nick}.tmi.twitch.tv JOIN #${channel}`);
          if (!nick.startsWith("justinfan")) {
            this.#send(c, `@badge-info=;badges=;color=;display-name=${nick};emote-sets=0;mod=0;subscriber=0;user-type= :tmi.twitch.tv USERSTATE #${channel}`);
          }
          const roomId = this.#roomIds.get(channel);
          this.membership.push({ at: Date.now(), connection: c.id, command: "JOIN", channel, joined: roomId !== undefined });
          // Twitch sends no ROOMSTATE for a channel that does not exist.
          if (roomId === undefined) continue;
          this.#send(c, `@emote-only=0;followers-only=-1;r9k=0;room-id=${roomId};slow=0;subs-only=0 :tmi.twitch.tv ROOMSTATE #${channel}`);
          c.joined.add(channel);
          const history = this.#history.get(channel) ?? [];
          const queued = this.#queued.get(channel) ?? [];
          this.#queued.delete(channel);
          const replay = this.replayOnJoin > 0 ? history.slice(-(this.replayOnJoin + queued.length), history.length - queued.length) : [];
          for (const queuedLine of [...replay, ...queued]) this.#send(c, queuedLine);
        }
        return;
      }
      case "PART": {
        // Twitch stops sending a channel's lines once the connection parted it.
        for (const target of argument.split(",")) {
          const channel = target.replace(/^#/, "");
          const was = c.joined.delete(channel);
          this.membership.push({ at: Date.now(), connection: c.id, command: "PART", channel, joined: false });
          if (!was) continue;
          const nick = c.nick ?? "justinfan1";
          this.#send(c, `:${nick}!${nick}@${nick}.tmi.twitch.tv PART #${channel}`);
        }
        return;
      }
      case "PING":
        // Twitch answers a client PING as "PONG :tmi.twitch.tv" (no prefix); tmi.js counts only that as
        // the answer, else its ping times out and it reconnects every 70 s.
        this.#send(c, "PONG :tmi.twitch.tv");
        return;
      default:
        return;
    }
  }
}

/** A PRIVMSG line in channel `#channel` with a unique message id. */
export function privmsgLine(channel: string, roomId: string, id: string, text: string, user = "viewer"): string {
  return `@badge-info=;badges=;color=#1E90FF;display-name=${user};emotes=;id=${id};room-id=${roomId};tmi-sent-ts=1700000000000;user-id=42;user-type= :${user}!${user}@${user}.tmi.twitch.tv PRIVMSG #${channel} :${text}`;
}
