import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OvationApp } from "../app.js";
import { bearer, seedUser, tempDataDir, testApp } from "./helpers.js";

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from("rest of a tiny png")]);

describe("alert media uploads (POST /v1/media, GET /media/<file>)", () => {
  const data = tempDataDir();
  let app: OvationApp;
  let token: string;
  beforeAll(async () => {
    app = await testApp(data.dir);
    token = seedUser(app, "Media", ["alerts:manage"]).token;
  });
  afterAll(async () => {
    await app.close();
    data.remove();
  });

  it("stores a file in the uploader's folder and serves it to anyone, inert", async () => {
    const upload = await app.inject({ method: "POST", url: "/v1/media", headers: { ...bearer(token), "content-type": "image/png" }, payload: PNG });
    expect(upload.statusCode).toBe(201);
    const { url, content_type, size } = upload.json<{ url: string; content_type: string; size: number }>();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:8080\/media\/\d+\/[0-9a-f]{64}\.png$/);
    expect([content_type, size]).toEqual(["image/png", PNG.length]);
    const served = await app.inject({ method: "GET", url: new URL(url).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG)).toBe(true);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.headers["content-security-policy"]).toContain("sandbox");
  });

  it("refuses other types, bytes that are not what the type says, strangers and odd names", async () => {
    const html = await app.inject({ method: "POST", url: "/v1/media", headers: { ...bearer(token), "content-type": "text/html" }, payload: "<script>alert(1)</script>" });
    expect(html.statusCode).toBe(415);
    const svg = await app.inject({ method: "POST", url: "/v1/media", headers: { ...bearer(token), "content-type": "image/svg+xml" }, payload: "<svg/>" });
    expect(svg.json<{ code: string }>().code).toBe("OVATION_ERR_MEDIA_UNSUPPORTED_TYPE");
    const fake = await app.inject({ method: "POST", url: "/v1/media", headers: { ...bearer(token), "content-type": "audio/mpeg" }, payload: "<html>not a sound</html>" });
    expect(fake.statusCode).toBe(422);
    expect(fake.json<{ code: string }>().code).toBe("OVATION_ERR_MEDIA_CONTENT_MISMATCH");
    const anonymous = await app.inject({ method: "POST", url: "/v1/media", headers: { "content-type": "image/png" }, payload: PNG });
    expect(anonymous.statusCode).toBe(401);
    expect((await app.inject({ method: "GET", url: "/media/..%2F..%2Fstore.json" })).statusCode).toBe(404);
    expect((await app.inject({ method: "GET", url: `/media/${"0".repeat(64)}.png` })).statusCode).toBe(404);
  });
});
