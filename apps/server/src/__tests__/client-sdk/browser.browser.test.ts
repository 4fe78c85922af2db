import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Browser } from "playwright-core";
import type * as OvationClientModule from "@ovation/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../services/chromium.js";
import { useClientFixture } from "./fixture.js";

const entry = fileURLToPath(new URL("../../../../../packages/client/src/index.ts", import.meta.url));

describe("@ovation/client in real Chromium", () => {
  const fx = useClientFixture();
  let browser: Browser;
  let bundle: string;

  beforeAll(async () => {
    const result = await build({ entryPoints: [entry], bundle: true, format: "iife", globalName: "Ovation", platform: "browser", write: false, logLevel: "silent" });
    bundle = result.outputFiles[0]?.text ?? "";
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it("calls the API with the browser's fetch, maps errors, and receives an alert over the socket with the serverid cookie", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${fx.base}/health`);
    await page.addScriptTag({ content: bundle });
    const handshakeCookies: Array<string | undefined> = [];
    const onConnection = (conn: { request: { headers: { cookie?: string } } }) => handshakeCookies.push(conn.request.headers.cookie);
    fx.app.ovation.io.engine.on("connection", onConnection);
    const outcome = await page.evaluate(
      async ({ base, token }) => {
        const { createOvationClient, connect, OvationNotFoundError } = (globalThis as unknown as { Ovation: typeof OvationClientModule }).Ovation;
        const client = createOvationClient({ baseUrl: base, token });
        const account = await client.users.account();
        const missing = await client.alertSets.get(999_999).then(
          () => null,
          (error: unknown) => ({ notFound: error instanceof OvationNotFoundError, code: (error as { code: string }).code }),
        );
        const socket = connect({ url: base, token, serverId: "auto" });
        await socket.whenConnected();
        const room = `${account.uuid}.ovation.${account.id}`;
        const joined = await socket.join(room);
        const received = new Promise<{ type: string; test: boolean | undefined }>((resolve) =>
          socket.on("notifysub", (alert) => resolve({ type: alert.subscription.type, test: alert.ovation?.test })),
        );
        await client.alerts.test({ template: "follow", platform: "twitch" });
        const alert = await received;
        const serverId = socket.serverId;
        socket.close();
        return { name: account.name, missing, joined, alert, serverId };
      },
      { base: fx.base, token: fx.user.token },
    );
    expect(outcome).toMatchObject({ name: "Sam", missing: { notFound: true, code: "OVATION_ERR_ALERT_SETS_NOT_FOUND" }, alert: { type: "follow", test: true } });
    fx.app.ovation.io.engine.off("connection", onConnection);
    const serverId = (await fx.client.service.health()).server_id;
    expect(outcome.serverId).toBe(serverId);
    // A page of the socket's own origin names the chosen server in the first handshake already.
    expect(handshakeCookies).toEqual([`serverid=${encodeURIComponent(serverId)}`]);
    const cookies = await context.cookies(fx.base);
    expect(cookies.find((c) => c.name === "serverid")?.value).toBe(encodeURIComponent(serverId));
    await context.close();
  });
});
