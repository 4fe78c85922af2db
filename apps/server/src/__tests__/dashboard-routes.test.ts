import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { dashboardAssetsDir } from "@ovation/dashboard";
import { afterAll, describe, expect, it } from "vitest";
import type { OvationApp } from "../app.js";
import type { IdentityModule } from "../identity/module.js";
import { tempDataDir, testApp } from "./helpers.js";

function bootstrapOf(html: string): Record<string, string> {
  const json = /<script id="ovation-dashboard-bootstrap" type="application\/json">(.*?)<\/script>/s.exec(html)?.[1];
  return JSON.parse(json ?? "{}") as Record<string, string>;
}

describe("the dashboard's page and client on the host", () => {
  const data = tempDataDir();
  const remote = tempDataDir();
  const served = tempDataDir();
  const apps: OvationApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
    data.remove();
    remote.remove();
    served.remove();
  });

  it("with local identity: the built-in public client, its callback under the public URL, the issuer of this host", async () => {
    let identity: IdentityModule | undefined;
    const app = await testApp(data.dir, { OVATION_PUBLIC_URL: "https://stream.example.com" }, { identity: { idUrl: "https://stream.example.com", onReady: (m) => (identity = m) } });
    apps.push(app);
    const client = identity?.clients.find("ovation-dashboard");
    expect(client).toMatchObject({ public: true, secret_hash: null, redirect_uris: ["https://stream.example.com/dashboard/callback"], post_logout_redirect_uris: ["https://stream.example.com/dashboard/signed-out"] });
    const page = await app.inject({ method: "GET", url: "/dashboard/alert-sets/3" });
    expect(page.statusCode).toBe(200);
    expect(bootstrapOf(page.body)).toMatchObject({ issuer: "https://stream.example.com/oauth", client_id: "ovation-dashboard", redirect_uri: "https://stream.example.com/dashboard/callback", base_path: "/dashboard" });
    expect(page.headers["x-frame-options"]).toBe("DENY");
    expect(page.headers["cache-control"]).toBe("no-store");
  });

  it("with a remote identity host: its issuer, the client id of OVATION_DASHBOARD_CLIENT_ID, and its origin in connect-src", async () => {
    const app = await testApp(remote.dir, {
      OVATION_PUBLIC_URL: "https://api.example.com",
      OVATION_IDENTITY_MODE: "remote",
      OVATION_ID_URL: "https://id.example.com",
      OVATION_ID_CLIENT_ID: "introspector",
      OVATION_ID_CLIENT_SECRET: "secret",
      OVATION_DASHBOARD_CLIENT_ID: "dash-public-1",
    });
    apps.push(app);
    const page = await app.inject({ method: "GET", url: "/dashboard" });
    expect(bootstrapOf(page.body)).toMatchObject({ issuer: "https://id.example.com/oauth", identity_api: "https://id.example.com/api", client_id: "dash-public-1", api_base: "https://api.example.com" });
    expect(String(page.headers["content-security-policy"])).toMatch(/connect-src [^;]*https:\/\/id\.example\.com/);
    expect(String(page.headers["content-security-policy"])).toMatch(/form-action 'self' https:\/\/id\.example\.com/);
    const root = await app.inject({ method: "GET", url: "/" });
    expect([root.statusCode, root.headers.location]).toEqual([302, "/dashboard"]);
  });

  it("serves the built assets as JavaScript with nosniff: app.js and app.css revalidated, content-hashed chunks cached for good", async () => {
    const chunksDir = path.join(dashboardAssetsDir, "chunks");
    if (!existsSync(chunksDir)) throw new Error(`the dashboard is not built (${chunksDir} is missing): run npx turbo run build --filter=@ovation/dashboard`);
    const app = await testApp(served.dir, { OVATION_PUBLIC_URL: "https://stream.example.com" });
    apps.push(app);
    const entry = await app.inject({ method: "GET", url: "/dashboard/assets/app.js" });
    expect(entry.statusCode).toBe(200);
    expect(entry.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(entry.headers["x-content-type-options"]).toBe("nosniff");
    expect(entry.headers["cache-control"]).toBe("no-cache");
    // Unchanged since the last load: a 304 without the body.
    const again = await app.inject({ method: "GET", url: "/dashboard/assets/app.js", headers: { "if-none-match": String(entry.headers.etag) } });
    expect([again.statusCode, again.body]).toEqual([304, ""]);
    const css = await app.inject({ method: "GET", url: "/dashboard/assets/app.css" });
    expect([css.statusCode, css.headers["cache-control"], String(css.headers["content-type"])]).toEqual([200, "no-cache", expect.stringMatching(/^text\/css/)]);

    // app.js names the chunks it imports; each is a file of chunks/ with a content hash in its name.
    const chunks = readdirSync(chunksDir).filter((f) => f.endsWith(".js"));
    expect(chunks.length).toBeGreaterThan(1);
    for (const name of chunks) expect(name).toMatch(/-[A-Z0-9]{8}\.js$/);
    const imported = [...entry.body.matchAll(/chunks\/([\w-]+\.js)/g)].map((m) => m[1]);
    expect(imported.length).toBeGreaterThan(0);
    for (const name of imported) expect(chunks).toContain(name);
    const chunk = await app.inject({ method: "GET", url: `/dashboard/assets/chunks/${chunks[0]}` });
    expect(chunk.statusCode).toBe(200);
    expect(chunk.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(chunk.headers["x-content-type-options"]).toBe("nosniff");
    expect(chunk.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    // A chunk of an older build (a stale tab) is a 404, never the app's HTML.
    const gone = await app.inject({ method: "GET", url: "/dashboard/assets/chunks/overview-ZZZZZZZZ.js" });
    expect(gone.statusCode).toBe(404);
    expect(String(gone.headers["content-type"])).not.toMatch(/html/);
    expect(gone.headers["cache-control"]).not.toBe("public, max-age=31536000, immutable");
  });
});
