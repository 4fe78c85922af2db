import type { z } from "zod";
import type { connectionViewSchema, meSchema } from "@ovation/core/api";
import type { PlatformTokens } from "../../store/connections.js";
import { timestamp } from "../../store/records.js";
import type { ConnectionRecord, UserRecord } from "../../store/records.js";
import type { PlatformOAuthSettings } from "../platforms/settings.js";

/** The user as `GET /api/users/@me` shows it (never the password hash). */
export function userView(user: UserRecord, extra: { two_factor_enabled: boolean; pending_email: string | null }): z.output<typeof meSchema> {
  return {
    id: user.id,
    uuid: user.uuid,
    name: user.name,
    email: user.email,
    email_verified_at: user.email_verified_at,
    pending_email: extra.pending_email,
    avatar: user.avatar,
    has_password: user.password_hash !== null,
    is_shadow: user.password_hash === null,
    two_factor_enabled: extra.two_factor_enabled,
    created_at: user.created_at,
    updated_at: user.updated_at,
  };
}

/**
 * A connection as `GET /api/users/@me/connections` shows it: the reference's record (`user_id`,
 * `platform_id`, `scopes`, `expires_at`, `platform_name`, `platform_login`, `display_name`) plus our
 * `platform_user_id`, `username` and `avatar_url`. `scopes` and `expires_at` are those of the
 * platform token kept with the connection; without one, the scopes this server asks the platform
 * for and `null`. The tokens themselves are never shown.
 */
export function connectionView(
  c: ConnectionRecord,
  settings: Pick<PlatformOAuthSettings, "displayName" | "scopes"> | undefined,
  tokens: Pick<PlatformTokens, "scopes" | "expires_at"> | null,
  status: z.output<typeof connectionViewSchema>["status"],
): z.output<typeof connectionViewSchema> {
  return {
    id: c.id,
    user_id: c.user_id,
    platform: c.platform,
    platform_id: c.platform_user_id,
    scopes: tokens !== null && tokens.scopes.length > 0 ? [...tokens.scopes] : [...(settings?.scopes ?? [])],
    expires_at: tokens !== null && tokens.expires_at > 0 ? timestamp(new Date(tokens.expires_at)) : null,
    platform_name: settings?.displayName ?? PLATFORM_NAMES[c.platform] ?? c.platform,
    platform_login: c.username,
    display_name: c.username,
    platform_user_id: c.platform_user_id,
    username: c.username,
    avatar_url: c.avatar_url,
    created_at: c.created_at,
    updated_at: c.updated_at,
    bot_enabled: c.bot_enabled !== false,
    status,
  };
}

const PLATFORM_NAMES: Readonly<Record<string, string>> = { twitch: "Twitch", youtube: "YouTube", kick: "Kick", tiktok: "TikTok", ovation: "Ovation" };
