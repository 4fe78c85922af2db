import type { ConnectionRecord, UserRecord } from "../../store/records.js";

/** The user as `GET /api/users/@me` shows it (never the password hash). */
export function userView(user: UserRecord, extra: { two_factor_enabled: boolean; pending_email: string | null }): Record<string, unknown> {
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

/** A connection as `GET /api/users/@me/connections` shows it. */
export function connectionView(c: ConnectionRecord): Record<string, unknown> {
  return {
    id: c.id,
    platform: c.platform,
    platform_id: c.platform_user_id,
    platform_user_id: c.platform_user_id,
    username: c.username,
    avatar_url: c.avatar_url,
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}
