import { z } from "zod";
import { callerOf } from "../authenticate.js";
import { ApiError } from "../../errors.js";
import type { ConnectionRecord, UserRecord } from "../../store/records.js";
import { authErrorResponses } from "../types.js";
import type { ZodApp } from "../types.js";

const actingUserSchema = z.object({ id: z.number(), name: z.string() });

/** The account of `GET /v1/users`; deprecated camelCase attributes are sent beside their replacements. */
export const accountSchema = z
  .object({
    id: z.number(),
    uuid: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    email_verified_at: z.string().nullable(),
    avatar: z.string().nullable(),
    has_password: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
    connections: z.array(z.object({ platform: z.string(), platform_id: z.string(), username: z.string() })),
    acting_user: actingUserSchema,
    actingUser: actingUserSchema.meta({ deprecated: true, description: "Deprecated (2023-02-06): use acting_user." }),
    referral_reward: z.null(),
    referralReward: z.null().meta({ deprecated: true, description: "Deprecated (2023-02-06): use referral_reward." }),
    referral_rewards: z.array(z.never()),
    referralRewards: z.array(z.never()).meta({ deprecated: true, description: "Deprecated (2023-02-06): use referral_rewards." }),
  })
  .meta({ id: "Account" });

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
