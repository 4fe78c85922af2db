import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { authorizationUrl } from "../platforms/platform-oauth.js";
import { loadIdentityEnv } from "../identity-env.js";
import { TWITCH_LINK_SCOPES, defaultPlatformSettings } from "../platforms/settings.js";

const creds = { clientId: "cid", clientSecret: "secret" };
function settings(platform: string) {
  const s = defaultPlatformSettings(platform, creds);
  if (s === null) throw new Error(`no settings for ${platform}`);
  return s;
}

describe("platform OAuth settings (wire formats of the four platforms)", () => {
  it("reads the user of each platform's user-info answer", () => {
    expect(settings("twitch").readProfile({ data: [{ id: "141981764", login: "twitchdev", display_name: "TwitchDev", email: "dev@example.com", profile_image_url: "https://x/p.png" }] })).toEqual({
      platform_user_id: "141981764",
      username: "twitchdev",
      email: "dev@example.com",
      avatar: "https://x/p.png",
    });
    expect(settings("youtube").readProfile({ kind: "youtube#channelListResponse", items: [{ id: "UC_x5XG1OV2P6uZZ5FSM9Ttw", snippet: { title: "Google for Developers", customUrl: "@googledevelopers", thumbnails: { default: { url: "https://yt/d.jpg" } } } }] })).toEqual({
      platform_user_id: "UC_x5XG1OV2P6uZZ5FSM9Ttw",
      username: "@googledevelopers",
      email: null,
      avatar: "https://yt/d.jpg",
    });
    expect(settings("kick").readProfile({ data: [{ user_id: 123456, name: "kickuser", email: "k@example.com", profile_picture: "https://kick/p.webp" }], message: "OK" })).toEqual({
      platform_user_id: "123456",
      username: "kickuser",
      email: "k@example.com",
      avatar: "https://kick/p.webp",
    });
    expect(settings("tiktok").readProfile({ data: { user: { open_id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4", display_name: "Tik Toker", avatar_url: "https://tt/a.jpg" } }, error: { code: "ok" } })).toEqual({
      platform_user_id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4",
      username: "Tik Toker",
      email: null,
      avatar: "https://tt/a.jpg",
    });
  });

  it("answers null for answers without a user, whatever their shape", () => {
    for (const platform of ["twitch", "youtube", "kick", "tiktok"]) {
      for (const junk of [null, 42, "x", [], {}, { data: [] }, { data: [{}] }, { items: [{ id: 5 }] }, { data: { user: {} } }]) {
        const profile = settings(platform).readProfile(junk);
        if (profile !== null) expect(typeof profile.platform_user_id).toBe("string");
      }
      expect(settings(platform).readProfile({})).toBeNull();
    }
    expect(defaultPlatformSettings("myspace", creds)).toBeNull();
  });

  it("builds each platform's authorization URL (client_key on TikTok, PKCE S256 where used)", () => {
    const input = { redirectUri: "https://id.example/oauth/platform/x/callback", state: "st", codeVerifier: "v".repeat(43) };
    const challenge = createHash("sha256").update(input.codeVerifier).digest("base64url");
    const twitch = new URL(authorizationUrl(settings("twitch"), input));
    expect(twitch.origin + twitch.pathname).toBe("https://id.twitch.tv/oauth2/authorize");
    expect(Object.fromEntries(twitch.searchParams)).toEqual({ client_id: "cid", redirect_uri: input.redirectUri, response_type: "code", scope: TWITCH_LINK_SCOPES.join(" "), state: "st" });
    // The broadcaster-only EventSub types and chat as the bot need these (subscriptions, cheers, redemptions).
    expect(TWITCH_LINK_SCOPES).toEqual(expect.arrayContaining(["user:read:email", "moderator:read:followers", "channel:read:subscriptions", "bits:read", "channel:read:redemptions"]));
    const kick = new URL(authorizationUrl(settings("kick"), input));
    expect(kick.searchParams.get("code_challenge")).toBe(challenge);
    expect(kick.searchParams.get("code_challenge_method")).toBe("S256");
    const tiktok = new URL(authorizationUrl(settings("tiktok"), input));
    expect(tiktok.searchParams.get("client_key")).toBe("cid");
    expect(tiktok.searchParams.get("client_id")).toBeNull();
    const youtube = new URL(authorizationUrl(settings("youtube"), input));
    expect(youtube.searchParams.get("scope")).toBe("https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/youtube.force-ssl");
    // Google returns a refresh token only for offline access; prompt=consent makes it send one on a re-link too.
    expect([youtube.searchParams.get("access_type"), youtube.searchParams.get("prompt")]).toEqual(["offline", "consent"]);
  });

  it("takes each platform's endpoints from the settings its plugin reads too (one setting points both at a fake)", () => {
    const env = {
      OVATION_TWITCH_AUTHORIZE_URL: "http://127.0.0.1:7001/oauth2/authorize",
      OVATION_TWITCH_TOKEN_URL: "http://127.0.0.1:7001/oauth2/token",
      OVATION_TWITCH_HELIX_URL: "http://127.0.0.1:7001/helix/",
      OVATION_YOUTUBE_API_URL: "http://127.0.0.1:7002/youtube/v3",
      OVATION_YOUTUBE_TOKEN_URL: "http://127.0.0.1:7002/token",
      OVATION_KICK_AUTHORIZE_URL: "http://127.0.0.1:7003/oauth/authorize",
      OVATION_KICK_API_URL: "http://127.0.0.1:7003/public/v1",
      OVATION_TIKTOK_API_URL: "http://127.0.0.1:7004/v2",
    };
    const endpoints = loadIdentityEnv(env).platformEndpoints;
    const of = (platform: string) => {
      const built = defaultPlatformSettings(platform, creds, endpoints[platform]);
      if (built === null) throw new Error(platform);
      return built;
    };
    expect([of("twitch").authorizeUrl, of("twitch").tokenUrl, of("twitch").userInfoUrl]).toEqual([env.OVATION_TWITCH_AUTHORIZE_URL, env.OVATION_TWITCH_TOKEN_URL, "http://127.0.0.1:7001/helix/users"]);
    expect([of("youtube").authorizeUrl, of("youtube").tokenUrl, of("youtube").userInfoUrl]).toEqual(["https://accounts.google.com/o/oauth2/v2/auth", env.OVATION_YOUTUBE_TOKEN_URL, "http://127.0.0.1:7002/youtube/v3/channels?part=snippet&mine=true"]);
    expect([of("kick").authorizeUrl, of("kick").tokenUrl, of("kick").userInfoUrl]).toEqual([env.OVATION_KICK_AUTHORIZE_URL, "https://id.kick.com/oauth/token", "http://127.0.0.1:7003/public/v1/users"]);
    expect(of("tiktok").userInfoUrl).toBe("http://127.0.0.1:7004/v2/user/info/?fields=open_id,avatar_url,display_name");
    expect(() => loadIdentityEnv({ OVATION_KICK_TOKEN_URL: "not a url" })).toThrow(/OVATION_KICK_TOKEN_URL: must be an absolute http\(s\) URL/);
  });
});
