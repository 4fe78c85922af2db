import { io as connectClient } from "socket.io-client";
import { describe, expect, test } from "vitest";
import type { NotifySub } from "@ovation/core";
import { seedDefaultAlertSet, seedUser } from "./helpers.js";
import type { SeededUser } from "./helpers.js";
import { useTwoNodesOnRedis } from "./services/redis.js";
import { nextEvent, postJson, waitFor } from "./socket-helpers.js";
import type { ClientSocket } from "./socket-helpers.js";

// Issue 31, item 6 (the cause): an acknowledgement that reaches a node before that node holds the
// alert must not be dropped. Each node here has its own copy of one store, so alerts POSTed to
// node A never enter node B's alert log: every acknowledgement of them that reaches node B is
// "early". The page then comes back through node A, whose log holds the alerts: it must get none
// of those it acknowledged.

const sockets: ClientSocket[] = [];
let alice: SeededUser;
let room: string;
let sourceToken: string;

const { urls } = useTwoNodesOnRedis(
  async (a) => {
    alice = seedUser(a, "Alice");
    await seedDefaultAlertSet(a, alice.userId);
    sourceToken = a.ovation.repos.browserSources.findOrCreate(alice.userId, "alerts", null).record.access_token;
    room = `${alice.uuid}.ovation.${alice.userId}`;
  },
  () => sockets.forEach((socket) => socket.close()),
);

/** The browser-source page on node `index`: joins its room, acknowledges every alert on receipt (as soon as it could be shown). */
async function page(index: number): Promise<{ socket: ClientSocket; seen: string[] }> {
  const socket: ClientSocket = connectClient(urls[index]!, { auth: { browserSourceToken: sourceToken }, transports: ["websocket"], forceNew: true, reconnection: false, timeout: 10_000 });
  sockets.push(socket);
  const seen: string[] = [];
  socket.on("notifysub", (n: NotifySub) => {
    seen.push(n.notification.id);
    socket.emit("ack", n.notification.id);
  });
  socket.on("connect", () => socket.emit("room", room));
  await nextEvent(socket, "joined");
  return { socket, seen };
}

async function alert(index: number, name: string): Promise<string> {
  const res = await postJson(`${urls[index]}/v1/alerts`, alice.token, { template: "follow", data: { name } });
  expect(res.status).toBe(201);
  return (res.json["notification"] as { id: string }).id;
}

describe("acknowledgements across nodes", () => {
  test("alerts acknowledged through a node that did not hold them yet are not sent again by the node that does", async () => {
    // The page first shows on node A (its backlog starts there), then the proxy sends it to node B.
    const first = await page(0);
    const shownOnA = await alert(0, "before");
    await waitFor(() => first.seen.includes(shownOnA), 10_000, "the first alert on node A");
    first.socket.close();

    const onB = await page(1);
    const burst: string[] = [];
    for (let i = 0; i < 20; i++) burst.push(await alert(0, `burst-${i}`));
    await waitFor(() => burst.every((id) => onB.seen.includes(id)), 20_000, "the burst on node B");
    // Lets the last acknowledgements reach node B (a marker alert's round trip through both nodes and Redis).
    const marker = await alert(0, "marker");
    await waitFor(() => onB.seen.includes(marker), 10_000, "the marker on node B");
    await new Promise((resolve) => setTimeout(resolve, 300));
    onB.socket.close();

    // The page reloads (nothing remembered on its side) and the proxy sends it to node A.
    const again = await page(0);
    const live = await alert(0, "live");
    await waitFor(() => again.seen.includes(live), 10_000, "a live alert after the reload");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(again.seen.filter((id) => burst.includes(id) || id === shownOnA || id === marker)).toEqual([]);
    expect(again.seen.filter((id) => id === live)).toHaveLength(1);
  }, 90_000);
});
