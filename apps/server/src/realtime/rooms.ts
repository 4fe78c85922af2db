import { hasScope } from "@ovation/core/contracts";
import type { Repositories } from "../store/repositories.js";
import type { UserRecord } from "../store/records.js";

/** The service's own platform id, used in every user's own room `<uuid>.ovation.<user_id>`. */
export const OWN_PLATFORM = "ovation";

const ROOM_SHAPE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([a-z0-9_-]{1,32})\.([A-Za-z0-9_-]{1,128})(?:\.(chat))?$/;

/** A parsed room id `<user_uuid>.<platform>.<platform_user_id>[.chat]`. */
export interface RoomId {
  userUuid: string;
  platform: string;
  platformUserId: string;
  /** True for the public `.chat` extension. */
  chat: boolean;
}

/** Parses a room id; null when it does not have the room shape. */
export function parseRoom(room: unknown): RoomId | null {
  if (typeof room !== "string" || room.length > 256) return null;
  const m = ROOM_SHAPE.exec(room);
  if (!m || !m[1] || !m[2] || !m[3]) return null;
  return { userUuid: m[1], platform: m[2], platformUserId: m[3], chat: m[4] === "chat" };
}

/** The user's own room on the service's platform. */
export function ownRoom(user: Pick<UserRecord, "uuid" | "id">): string {
  return `${user.uuid}.${OWN_PLATFORM}.${user.id}`;
}

/** Every private room of a user: the own room plus one per linked platform account. */
export function userRooms(repos: Repositories, user: Pick<UserRecord, "uuid" | "id">): string[] {
  return [ownRoom(user), ...repos.connections.listForUser(user.id).map((c) => `${user.uuid}.${c.platform}.${c.platform_user_id}`)];
}

/** Whether `room` is one of this user's private rooms (own room, or a linked platform account). */
export function isUsersRoom(repos: Repositories, user: Pick<UserRecord, "uuid" | "id">, room: RoomId): boolean {
  if (room.userUuid !== user.uuid) return false;
  if (room.platform === OWN_PLATFORM) return room.platformUserId === String(user.id);
  const connection = repos.connections.findByPlatformId(room.platform, room.platformUserId);
  return connection !== null && connection.user_id === user.id;
}

/**
 * The scopes a bearer-token socket needs to join a room, by kind (any one of them suffices): a
 * private room (own or linked platform account) carries alerts (`notifysub`), queue control and
 * browser-source updates, so it needs `alerts:manage` or `widgets:manage`; a public `.chat` room
 * needs none. Browser-source tokens and sign-in sessions are not scoped (a browser-source token is
 * already limited to its user's private rooms). Documented in docs/security.md.
 */
export const ROOM_SCOPES: Readonly<Record<"private" | "chat", readonly string[]>> = {
  private: ["alerts:manage", "widgets:manage"],
  chat: [],
};

/** The scopes of the room's kind when `granted` holds none of them; empty when it may join. */
export function missingRoomScopes(room: RoomId, granted: readonly string[]): string[] {
  const needed = ROOM_SCOPES[room.chat ? "chat" : "private"];
  if (needed.length === 0 || needed.some((scope) => hasScope(granted, scope))) return [];
  return [...needed];
}
