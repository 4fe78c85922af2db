import { io as connectClient } from "socket.io-client";
import type { Socket } from "socket.io-client";
import { describe, expect, test } from "vitest";
import { issueChatToken } from "../admin/chat-token.js";
import { ALL_SCOPES, seedUser } from "./helpers.js";
import type { SeededUser } from "./helpers.js";
import { useTwoNodesOnRedis } from "./services/redis.js";
import { connect, join, waitFor } from "./socket-helpers.js";
import type { ClientSocket } from "./socket-helpers.js";

// Issue 31, item 3 on two nodes: a token revoked on node A closes the sockets opened with it on
// node B (main namespace and /console) through Redis. Each node has its own copy of one store, so
// node B still holds the token as valid: only the revocation message can close its sockets.

const opened: Array<{ close(): unknown }> = [];
let alice: SeededUser;
let leaked: { id: number; token: string };
let kept: string;
let chatToken: string;

const { apps, urls } = useTwoNodesOnRedis(
  (a) => {
    alice = seedUser(a, "Alice");
    const created = a.ovation.repos.tokens.create({ user_id: alice.userId, name: "leaked", scopes: ALL_SCOPES });
    leaked = { id: created.record.id, token: created.token };
    kept = alice.token;
    chatToken = issueChatToken(a.ovation.repos, "Alice");
  },
  () => opened.forEach((socket) => socket.close()),
);

async function consoleOn(url: string, token: string): Promise<Socket> {
  const socket = connectClient(`${url}/console`, { auth: { token }, transports: ["websocket"], reconnection: false, forceNew: true, timeout: 10_000 });
  opened.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once("ready", () => resolve());
    socket.once("connect_error", reject);
  });
  return socket;
}

async function mainOn(url: string, token: string, room: boolean): Promise<ClientSocket> {
  const socket = await connect(url, { token });
  opened.push(socket);
  if (room) expect(await join(socket, `${alice.uuid}.ovation.${alice.userId}`)).toMatchObject({ joined: expect.any(String) });
  return socket;
}

function closedFlag(socket: { on(event: "disconnect", listener: () => void): unknown }): { closed: boolean } {
  const flag = { closed: false };
  socket.on("disconnect", () => (flag.closed = true));
  return flag;
}

describe("token revocation on two nodes on Redis", () => {
  test("a personal access token revoked on node A closes its main and console sockets on both nodes; another token's stay", async () => {
    const onB = { main: await mainOn(urls[1]!, leaked.token, true), console: await consoleOn(urls[1]!, leaked.token) };
    const onA = { main: await mainOn(urls[0]!, leaked.token, true) };
    const keptOnB = { main: await mainOn(urls[1]!, kept, true), console: await consoleOn(urls[1]!, kept) };
    const flags = [closedFlag(onB.main), closedFlag(onB.console), closedFlag(onA.main)];
    const errors: string[] = [];
    onB.main.on("error", (payload: { code: string }) => errors.push(payload.code));

    expect(apps[0]!.ovation.repos.tokens.revoke(leaked.id)).toBe(true);
    await waitFor(() => flags.every((f) => f.closed), 10_000, "the revoked token's sockets on both nodes to close");
    expect(errors).toContain("OVATION_ERR_REALTIME_UNAUTHENTICATED");
    expect(keptOnB.main.connected && keptOnB.console.connected).toBe(true);
    // Node B's own copy of the store still holds the token valid; the revocation it heard of still refuses it.
    expect(apps[1]!.ovation.repos.tokens.get(leaked.id)?.revoked_at).toBeNull();
    await expect(connect(urls[1]!, { token: leaked.token })).rejects.toMatchObject({ data: { code: "OVATION_ERR_REALTIME_UNAUTHENTICATED" } });
  }, 60_000);

  test("an `ovation chat` session ended on node A closes its console on node B", async () => {
    const consoleB = await consoleOn(urls[1]!, chatToken);
    const flag = closedFlag(consoleB);
    // A new session on node A revokes the earlier session token.
    issueChatToken(apps[0]!.ovation.repos, "Alice");
    await waitFor(() => flag.closed, 10_000, "the ended chat session's console on node B to close");
  }, 60_000);
});
