import { z } from "zod";

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
