import { createServer } from "node:http";
import type { IncomingMessage, Server } from "node:http";

/** A Twitch account the fake OAuth service signs in as. */
export interface FakeTwitchUser {
  id: string;
  login: string;
  display_name: string;
  email: string | null;
  profile_image_url: string;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * A fake Twitch identity service on loopback speaking the real wire formats of `id.twitch.tv`
 * (authorize redirect, form-encoded token exchange) and `api.twitch.tv/helix/users`. The signed-in
 * user is whoever `nextUser` names when the browser reaches the authorize endpoint.
 */
export async function startFakeTwitch(credentials: { clientId: string; clientSecret: string }): Promise<{
  base: string;
  nextUser: FakeTwitchUser;
  setNextUser(user: FakeTwitchUser): void;
  tokenRequests: URLSearchParams[];
  close(): Promise<void>;
}> {
  const codes = new Map<string, { user: FakeTwitchUser; redirectUri: string }>();
  const tokens = new Map<string, FakeTwitchUser>();
  const tokenRequests: URLSearchParams[] = [];
  const state = {
    nextUser: { id: "106415581", login: "streamer_sam", display_name: "Streamer_Sam", email: "sam@twitch.example", profile_image_url: "https://static-cdn.example/sam.png" } as FakeTwitchUser,
  };
  let counter = 0;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://localhost");
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (req.method === "GET" && url.pathname === "/oauth2/authorize") {
        const redirectUri = url.searchParams.get("redirect_uri") ?? "";
        if (url.searchParams.get("client_id") !== credentials.clientId || url.searchParams.get("response_type") !== "code") return json(400, { status: 400, message: "invalid client" });
        const code = `code${(counter += 1)}`;
        codes.set(code, { user: state.nextUser, redirectUri });
        const back = new URL(redirectUri);
        back.searchParams.set("code", code);
        back.searchParams.set("scope", url.searchParams.get("scope") ?? "");
        back.searchParams.set("state", url.searchParams.get("state") ?? "");
        res.writeHead(302, { location: back.href });
        return res.end();
      }
      if (req.method === "POST" && url.pathname === "/oauth2/token") {
        const form = new URLSearchParams(await readBody(req));
        tokenRequests.push(form);
        const grant = codes.get(form.get("code") ?? "");
        if (form.get("client_id") !== credentials.clientId || form.get("client_secret") !== credentials.clientSecret) return json(403, { status: 403, message: "invalid client secret" });
        if (!grant || form.get("grant_type") !== "authorization_code" || form.get("redirect_uri") !== grant.redirectUri) return json(400, { status: 400, message: "Invalid authorization code" });
        codes.delete(form.get("code") ?? "");
        const token = `tok${(counter += 1)}`;
        tokens.set(token, grant.user);
        return json(200, { access_token: token, expires_in: 14_000, refresh_token: `r${token}`, scope: ["user:read:email"], token_type: "bearer" });
      }
      if (req.method === "GET" && url.pathname === "/helix/users") {
        const user = tokens.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));
        if (!user || req.headers["client-id"] !== credentials.clientId) return json(401, { error: "Unauthorized", status: 401, message: "Invalid OAuth token" });
        return json(200, { data: [{ ...user, type: "", broadcaster_type: "affiliate", description: "", offline_image_url: "", view_count: 0, created_at: "2016-12-14T20:32:28Z" }] });
      }
      return json(404, { status: 404, message: "not found" });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    base: `http://127.0.0.1:${port}`,
    get nextUser() {
      return state.nextUser;
    },
    setNextUser(user) {
      state.nextUser = user;
    },
    tokenRequests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
