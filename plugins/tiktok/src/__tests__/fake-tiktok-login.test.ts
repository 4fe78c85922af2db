import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeTikTokLogin } from "../testing/index.js";

describe("the TikTok Login Kit fake", () => {
  let fake: FakeTikTokLogin;
  beforeAll(async () => {
    fake = await FakeTikTokLogin.start();
    fake.addAccount("open-id-1", "first");
  });
  afterAll(async () => {
    await fake.close();
  });

  async function authorize(verifier: string, clientKey = fake.clientKey): Promise<Response> {
    const url = new URL(fake.authorizeUrl);
    url.search = new URLSearchParams({ client_key: clientKey, redirect_uri: "http://127.0.0.1/cb", response_type: "code", scope: "user.info.basic", state: "s1", code_challenge: createHash("sha256").update(verifier).digest("base64url"), code_challenge_method: "S256" }).toString();
    return fetch(url, { redirect: "manual" });
  }
  const exchange = (code: string, verifier: string) =>
    fetch(fake.tokenUrl, { method: "POST", body: new URLSearchParams({ client_key: fake.clientKey, client_secret: fake.clientSecret, code, grant_type: "authorization_code", redirect_uri: "http://127.0.0.1/cb", code_verifier: verifier }) });

  it("exchanges a code once, with the PKCE verifier, and names the user", async () => {
    expect((await authorize("v", "wrong-key")).status).toBe(400);
    const to = new URL((await authorize("verifier-1")).headers.get("location") ?? "");
    expect(to.searchParams.get("state")).toBe("s1");
    const code = to.searchParams.get("code") ?? "";
    expect(((await (await exchange(code, "other")).json()) as { error: string }).error).toBe("invalid_grant");
    const to2 = new URL((await authorize("verifier-2")).headers.get("location") ?? "");
    const token = (await (await exchange(to2.searchParams.get("code") ?? "", "verifier-2")).json()) as { access_token: string; open_id: string };
    expect(token.open_id).toBe("open-id-1");
    expect((await exchange(to2.searchParams.get("code") ?? "", "verifier-2")).status).toBe(400);
    const info = await fetch(`${fake.apiUrl}/user/info/?fields=open_id,display_name`, { headers: { authorization: `Bearer ${token.access_token}` } });
    expect(await info.json()).toMatchObject({ data: { user: { open_id: "open-id-1", display_name: "first" } }, error: { code: "ok" } });
    expect((await fetch(`${fake.apiUrl}/user/info/?fields=open_id`, { headers: { authorization: "Bearer nope" } })).status).toBe(401);
  });
});
