import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { OvationApp } from "../app.js";
import { tempDataDir, testApp } from "./helpers.js";
import { connect, join, listen, waitFor } from "./socket-helpers.js";

/** Issue 10, low: browser-source tokens kept working after DELETE /api/users/@me (page, config and socket). */
const data = tempDataDir();
let app: OvationApp;
let url: string;

beforeAll(async () => {
  app = await testApp(data.dir);
  url = await listen(app);
});
afterAll(async () => {
  await app.close();
  data.remove();
});

describe("deleting an account", () => {
  test("revokes its browser-source tokens (page, config, socket) and closes its sockets; other users keep theirs", async () => {
    const repos = app.ovation.repos;
    // Without an email address the deletion needs no elevated access token.
    const gone = repos.users.create({ name: "Leaving", email: null });
    const { token } = repos.tokens.create({ user_id: gone.id, name: "t", scopes: ["user:manage", "alerts:manage"] });
    const stay = repos.users.create({ name: "Staying", email: null });
    const source = repos.browserSources.findOrCreate(gone.id, "alerts", null).record;
    const kept = repos.browserSources.findOrCreate(stay.id, "alerts", null).record;
    const page = (t: string) => app.inject({ method: "GET", url: `/browser-source/alerts/${t}` });
    const config = (t: string) => app.inject({ method: "GET", url: `/browser-source/api/${t}/config` });
    expect((await page(source.access_token)).statusCode).toBe(200);
    expect((await config(source.access_token)).statusCode).toBe(200);

    const sourceSocket = await connect(url, { browserSourceToken: source.access_token });
    expect(await join(sourceSocket, `${gone.uuid}.ovation.${gone.id}`)).toMatchObject({ joined: expect.any(String) });
    const ownerSocket = await connect(url, { token });
    const keptSocket = await connect(url, { browserSourceToken: kept.access_token });
    let closed = 0;
    sourceSocket.on("disconnect", () => closed++);
    ownerSocket.on("disconnect", () => closed++);

    const deleted = await app.inject({ method: "DELETE", url: "/api/users/@me", headers: { authorization: `Bearer ${token}` } });
    expect(deleted.statusCode).toBe(204);
    await waitFor(() => closed === 2, 10_000, "both sockets of the deleted user closed");
    expect(keptSocket.connected).toBe(true);

    expect((await page(source.access_token)).statusCode).toBe(404);
    expect((await config(source.access_token)).statusCode).toBe(404);
    await expect(connect(url, { browserSourceToken: source.access_token })).rejects.toMatchObject({ data: { code: "OVATION_ERR_REALTIME_UNAUTHENTICATED" } });
    expect((await page(kept.access_token)).statusCode).toBe(200);
    keptSocket.close();
  });
});
