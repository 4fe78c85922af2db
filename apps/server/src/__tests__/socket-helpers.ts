import type { AddressInfo } from "node:net";
import { io as connectClient } from "socket.io-client";
import type { Socket } from "socket.io-client";
import type { ClientToServerEvents, ServerToClientEvents } from "@ovation/core";
import type { OvationApp } from "../app.js";

/** A typed socket.io client. */
export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Listens on a loopback port and returns the base URL. */
export async function listen(app: OvationApp): Promise<string> {
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** Connects a client; resolves once connected, rejects with the connect_error. */
export function connect(url: string, auth: Record<string, string>, extraHeaders?: Record<string, string>): Promise<ClientSocket> {
  const socket: ClientSocket = connectClient(url, { auth, transports: ["websocket"], reconnection: false, forceNew: true, timeout: 10_000, ...(extraHeaders ? { extraHeaders } : {}) });
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", (error) => {
      socket.close();
      reject(error);
    });
  });
}

/** Resolves with the next `event` payload, or rejects after `timeoutMs`. */
export function nextEvent<E extends keyof ServerToClientEvents>(socket: ClientSocket, event: E, timeoutMs = 10_000): Promise<Parameters<ServerToClientEvents[E]>[0]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${String(event)} within ${timeoutMs} ms`)), timeoutMs);
    const handler = (payload: Parameters<ServerToClientEvents[E]>[0]) => {
      clearTimeout(timer);
      resolve(payload);
    };
    (socket as unknown as { once(e: string, h: (p: unknown) => void): void }).once(String(event), handler as (p: unknown) => void);
  });
}

/** Waits until `check` is true, polling every 20 ms, at most `timeoutMs`. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Joins a room and resolves with the server's answer: `joined` or `error`. */
export function join(socket: ClientSocket, room: string): Promise<{ joined: string } | { error: { code: string; message: string; room?: string } }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer to joining ${room}`)), 10_000);
    const onJoined = (p: { room: string }) => done({ joined: p.room });
    const onError = (p: { code: string; message: string; room?: string }) => done({ error: p });
    const done = (answer: { joined: string } | { error: { code: string; message: string; room?: string } }) => {
      clearTimeout(timer);
      socket.off("joined", onJoined);
      socket.off("error", onError);
      resolve(answer);
    };
    socket.on("joined", onJoined);
    socket.on("error", onError);
    socket.emit("room", room);
  });
}

/** POSTs JSON with a bearer token over real HTTP. */
export async function postJson(url: string, token: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}
