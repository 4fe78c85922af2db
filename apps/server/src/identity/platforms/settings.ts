import { TWITCH_BROADCASTER_SCOPES } from "@ovation/plugin-twitch";
import type { PlatformEndpoints } from "../identity-env.js";

/** What the generic OAuth client needs to know about one platform's OAuth 2.0 service. */
export interface PlatformOAuthSettings {
  platform: string;
  /** Shown on the sign-in button. */
  displayName: string;
  authorizeUrl: string;
  tokenUrl: string;
  userInfoUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: readonly string[];
  /** Extra authorization parameters (Google: `access_type=offline` so the code exchange returns a refresh token). */
  authorizeParams?: Readonly<Record<string, string>>;
  /** Send a PKCE S256 challenge (Kick requires it; harmless elsewhere). */
  pkce: boolean;
  /** Name of the client id parameter (`client_key` on TikTok). */
  clientIdParam: string;
  /** Extra headers of the user-info request (Twitch wants `Client-Id`). */
  userInfoHeaders(accessToken: string): Record<string, string>;
  /** Reads the platform user from the user-info JSON; null when it has no user. */
  readProfile(json: unknown): PlatformProfile | null;
}

/** The platform account a login or link resolved to. */
export interface PlatformProfile {
  platform_user_id: string;
  username: string;
  email: string | null;
  avatar: string | null;
  /** The OAuth tokens of the code exchange, stored with the connection for platform plugins. */
  tokens?: { access_token: string; refresh_token: string | null; expires_at: number; scopes: string[] };
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : null);
const str = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : typeof v === "number" ? String(v) : null);
const first = (v: unknown): Json | null => (Array.isArray(v) ? obj(v[0]) : null);

/**
 * What linking Twitch asks: the Twitch plugin's list (the profile and the broadcaster-only EventSub
 * types its alerts need; each scope's reason is in `TWITCH_BROADCASTER_SCOPE_REASONS`).
 */
export const TWITCH_LINK_SCOPES: readonly string[] = TWITCH_BROADCASTER_SCOPES;

/** `base` + `path` without a doubled slash. */
const under = (base: string, path: string) => `${base.replace(/\/+$/, "")}${path}`;

/**
 * The endpoints and wire formats of the four platforms; credentials come from the environment.
 * `endpoints` are the overrides the platform's plugin reads too (`OVATION_<P>_AUTHORIZE_URL`,
 * `OVATION_<P>_TOKEN_URL`, the API base), so one setting points both at a proxy or a fake.
 */
export function defaultPlatformSettings(
  platform: string,
  credentials: { clientId: string; clientSecret: string },
  endpoints: PlatformEndpoints = {},
): PlatformOAuthSettings | null {
  const e = endpoints;
  switch (platform) {
    case "twitch":
      return {
        platform,
        displayName: "Twitch",
        authorizeUrl: e.authorizeUrl ?? "https://id.twitch.tv/oauth2/authorize",
        tokenUrl: e.tokenUrl ?? "https://id.twitch.tv/oauth2/token",
        userInfoUrl: under(e.apiUrl ?? "https://api.twitch.tv/helix", "/users"),
        ...credentials,
        scopes: TWITCH_LINK_SCOPES,
        pkce: false,
        clientIdParam: "client_id",
        userInfoHeaders: () => ({ "Client-Id": credentials.clientId }),
        readProfile(json) {
          const u = first(obj(json)?.data);
          const id = str(u?.id);
          if (u === null || id === null) return null;
          return { platform_user_id: id, username: str(u.login) ?? str(u.display_name) ?? id, email: str(u.email), avatar: str(u.profile_image_url) };
        },
      };
    case "youtube":
      return {
        platform,
        displayName: "YouTube",
        authorizeUrl: e.authorizeUrl ?? "https://accounts.google.com/o/oauth2/v2/auth",
        tokenUrl: e.tokenUrl ?? "https://oauth2.googleapis.com/token",
        userInfoUrl: under(e.apiUrl ?? "https://www.googleapis.com/youtube/v3", "/channels?part=snippet&mine=true"),
        ...credentials,
        // youtube.force-ssl lets the YouTube plugin read and write live chat and list subscribers.
        scopes: ["https://www.googleapis.com/auth/youtube.readonly", "https://www.googleapis.com/auth/youtube.force-ssl"],
        authorizeParams: { access_type: "offline", prompt: "consent", include_granted_scopes: "true" },
        pkce: true,
        clientIdParam: "client_id",
        userInfoHeaders: () => ({}),
        readProfile(json) {
          const c = first(obj(json)?.items);
          const id = str(c?.id);
          if (c === null || id === null) return null;
          const snippet = obj(c.snippet);
          const avatar = str(obj(obj(snippet?.thumbnails)?.default)?.url);
          return { platform_user_id: id, username: str(snippet?.customUrl) ?? str(snippet?.title) ?? id, email: null, avatar };
        },
      };
    case "kick":
      return {
        platform,
        displayName: "Kick",
        authorizeUrl: e.authorizeUrl ?? "https://id.kick.com/oauth/authorize",
        tokenUrl: e.tokenUrl ?? "https://id.kick.com/oauth/token",
        userInfoUrl: under(e.apiUrl ?? "https://api.kick.com/public/v1", "/users"),
        ...credentials,
        // The Kick plugin reads the channel, sends chat and subscribes the app to webhook events.
        scopes: ["user:read", "channel:read", "chat:write", "events:subscribe"],
        pkce: true,
        clientIdParam: "client_id",
        userInfoHeaders: () => ({}),
        readProfile(json) {
          const u = first(obj(json)?.data);
          const id = str(u?.user_id);
          if (u === null || id === null) return null;
          return { platform_user_id: id, username: str(u.name) ?? id, email: str(u.email), avatar: str(u.profile_picture) };
        },
      };
    case "tiktok":
      return {
        platform,
        displayName: "TikTok",
        authorizeUrl: e.authorizeUrl ?? "https://www.tiktok.com/v2/auth/authorize/",
        tokenUrl: e.tokenUrl ?? "https://open.tiktokapis.com/v2/oauth/token/",
        userInfoUrl: under(e.apiUrl ?? "https://open.tiktokapis.com/v2", "/user/info/?fields=open_id,avatar_url,display_name"),
        ...credentials,
        scopes: ["user.info.basic"],
        pkce: true,
        clientIdParam: "client_key",
        userInfoHeaders: () => ({}),
        readProfile(json) {
          const u = obj(obj(obj(json)?.data)?.user);
          const id = str(u?.open_id);
          if (u === null || id === null) return null;
          return { platform_user_id: id, username: str(u.display_name) ?? id, email: null, avatar: str(u.avatar_url) };
        },
      };
    default:
      return null;
  }
}
