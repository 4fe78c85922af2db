import { join } from "node:path";
import { z } from "zod";

/** File name of the admin socket in the data directory (filesystem permissions guard it). */
export const ADMIN_SOCKET_FILE = "ovation.sock";

/**
 * Lifetime of a chat token: 6 hours covers a long streaming session, yet a token left behind by a
 * killed terminal stops working the same day. The CLI revokes it when the session ends anyway.
 */
export const CHAT_TOKEN_LIFETIME_MS = 6 * 60 * 60 * 1000;

/** Path of the admin socket of a data directory. */
export function adminSocketPath(dataDir: string): string {
  return join(dataDir, ADMIN_SOCKET_FILE);
}

/** A request to the running server: the CLI's store operations, so they never race its writes. */
export const adminRequestSchema = z.discriminatedUnion("op", [
  z.object({ op: z.literal("user.create"), name: z.string(), email: z.string().optional() }),
  z.object({ op: z.literal("token.create"), user: z.string(), scopes: z.string(), name: z.string().optional() }),
  z.object({ op: z.literal("user.password"), user: z.string(), email: z.string().optional(), password_hash: z.string().min(1).max(512) }),
  z.object({ op: z.literal("chat.token.issue"), user: z.string().min(1, "user must not be empty") }),
  z.object({ op: z.literal("plugins.list") }),
  z.object({
    op: z.literal("simulate"),
    user: z.string().min(1, "--user must not be empty").optional(),
    type: z.string().min(1).max(128),
    platform: z.string().min(1).max(32),
    name: z.string().min(1, "--name must not be empty").max(100).optional(),
    data: z.record(z.string().max(64), z.unknown()).optional(),
  }),
  z.object({ op: z.literal("chat.token.revoke"), token: z.string().min(1, "token must not be empty").max(512, "token must be at most 512 characters") }),
]);

/** An admin request. */
export type AdminRequest = z.infer<typeof adminRequestSchema>;

/** An admin answer: a result, or an error code and message. */
export type AdminResponse = { ok: true; result: unknown } | { ok: false; code: string; message: string };
