import type { z } from "zod";
import { accountSchema } from "@ovation/core/api";
import { callerOf } from "../authenticate.js";
import { ApiError } from "../../errors.js";
import type { ConnectionRecord, UserRecord } from "../../store/records.js";
import { authErrorResponses } from "../types.js";
import type { ZodApp } from "../types.js";


/** The API view of a user. */
export function presentAccount(user: UserRecord, connections: readonly ConnectionRecord[]): z.infer<typeof accountSchema> {
  const acting = { id: user.id, name: user.name };
  return {
    id: user.id,
    uuid: user.uuid,
    name: user.name,
    email: user.email,
    email_verified_at: user.email_verified_at,
    avatar: user.avatar,
    has_password: user.password_hash !== null,
    created_at: user.created_at,
    updated_at: user.updated_at,
    connections: connections.map((c) => ({ platform: c.platform, platform_id: c.platform_user_id, username: c.username })),
    acting_user: acting,
    actingUser: acting,
    referral_reward: null,
    referralReward: null,
    referral_rewards: [],
    referralRewards: [],
  };
}

/** `GET /v1/users`: the caller's account. */
export async function userRoutes(app: ZodApp): Promise<void> {
  app.get(
    "/v1/users",
    {
      preHandler: app.ovation.authenticate("user:read"),
      schema: {
        tags: ["users"],
        summary: "The caller's account",
        security: [{ bearerAuth: [] }],
        response: { 200: accountSchema, ...authErrorResponses },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const user = app.ovation.repos.users.get(caller.userId);
      if (!user) throw new ApiError("OVATION_ERR_AUTH_UNAUTHENTICATED");
      return presentAccount(user, app.ovation.repos.connections.listForUser(user.id));
    },
  );
}
