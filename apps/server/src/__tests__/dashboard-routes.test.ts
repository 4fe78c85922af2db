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
  const apps: OvationApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
    data.remove();
    remote.remove();
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
});
