import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { expect, test } from "vitest";
import { tempDataDir, testApp } from "./helpers.js";

// A peer that keeps a connection open at shutdown (a browser's half-sent request or spare
// connection, a WebSocket) must not hold the server's close: the dashboard tests' shutdown waited
// on one until the test's hook gave up. Both kinds are ended after the close's short grace.
test("close ends a connection with a half-sent request and an open WebSocket instead of waiting for the peer", async () => {
  const data = tempDataDir();
  const app = await testApp(data.dir, {}, { platforms: false });
  try {
    await app.listen({ host: "127.0.0.1", port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const open = (lines: string) =>
      new Promise<{ closed: Promise<void> }>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1", () => {
          socket.write(lines);
          resolve({ closed: new Promise<void>((done) => socket.once("close", () => done())) });
        });
        socket.on("error", () => {});
        socket.once("error", reject);
      });
    // Headers without their end: an active request, not an idle connection (the headers timeout is 20 s).
    const halfSent = await open("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    // A WebSocket upgrade to a path socket.io does not serve: the socket stays with the server.
    const upgrade = await open("GET /not-socket-io HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n");
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closing = app.close().then(() => "closed" as const);
    const outcome = await Promise.race([closing, new Promise<"still open">((resolve) => setTimeout(() => resolve("still open"), 15_000))]);
    expect(outcome).toBe("closed");
    await halfSent.closed;
    await upgrade.closed;
  } finally {
    await app.close().catch(() => {});
    data.remove();
  }
}, 40_000);
