import type { OvationIo } from "./socket-types.js";

/** A running heartbeat; `stop` clears its timer. */
export interface ChatHeartbeat {
  stop(): void;
}

/**
 * Sends `ingress-event` `{type: "heartbeat", data: {timestamp, room}}` to every public `.chat` room
 * this node has sockets in, every `intervalMs` (default `CHAT_HEARTBEAT_INTERVAL_MS`, 30 s), so a
 * chat client can tell a quiet chat from a dead connection. Each node beats for its own sockets.
 */
export function startChatHeartbeat(io: OvationIo, intervalMs: number): ChatHeartbeat {
  const timer = setInterval(() => {
    const timestamp = Date.now();
    for (const room of io.of("/").adapter.rooms.keys()) {
      if (room.endsWith(".chat")) io.local.to(room).emit("ingress-event", { type: "heartbeat", data: { timestamp, room } });
    }
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
