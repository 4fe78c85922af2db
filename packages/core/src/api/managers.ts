import { z } from "zod";

/** The roles a streamer can grant another account on their channel. */
export const MANAGER_ROLES = ["editor", "moderator"] as const;
/** A manager's role. */
export type ManagerRole = (typeof MANAGER_ROLES)[number];

/**
 * What each role may do on the streamer's `{user}` routes, as token scopes: a manager's call gets the
 * scopes its token holds AND its role allows, never more. No role reaches identity, security,
 * tokens, connections or the account (`user:*`, `connections`...), nor the bot's signing secret.
 * - editor: alerts, alert sets, media, the simulator, overlays (browser sources without their
 *   addresses, goal bars) and commands.
 * - moderator: the bot modules (timers, giveaways, auto-moderation), counters and system commands.
 */
export const MANAGER_ROLE_SCOPES: Readonly<Record<ManagerRole, readonly string[]>> = {
  editor: ["alerts:manage", "widgets:manage", "chatbot:manage:commands"],
  moderator: [
    "chatbot:read",
    "chatbot:manage",
    "chatbot:manage:timers",
    "chatbot:manage:giveaways",
    "chatbot:manage:moderation",
    "chatbot:manage:points",
    "chatbot:manage:quotes",
    "chatbot:manage:queue",
    "chatbot:manage:polls",
    "chatbot:manage:shoutouts",
  ],
};

const roleSchema = z.enum(MANAGER_ROLES, { error: () => `must be one of ${MANAGER_ROLES.join(", ")}` });

/** `POST /v1/managers`: grant (or change) a role to another account, named by its id or its name. */
export const managerGrantBodySchema = z.object({
  user: z.union([z.number().int().positive(), z.string().trim().min(1, "must name an account").max(100)], { error: () => "must be an account id or name" }),
  role: roleSchema,
});

/** One manager of the caller's channel. */
export const managerViewSchema = z
  .object({
    user_id: z.number(),
    name: z.string(),
    role: roleSchema,
    scopes: z.array(z.string()).describe("What the role may touch, as token scopes"),
    granted_at: z.string(),
  })
  .meta({ id: "Manager" });

/** One channel the caller manages. */
export const managedChannelSchema = z
  .object({
    user_id: z.number().describe("The streamer's id: use it as `{user}` in `/v1/bots/{user}/...`"),
    name: z.string(),
    avatar: z.string().nullable(),
    role: roleSchema,
    scopes: z.array(z.string()),
    granted_at: z.string(),
  })
  .meta({ id: "ManagedChannel" });

/** One write a manager made (or tried) on the streamer's channel. */
export const managerAuditEntrySchema = z
  .object({
    id: z.number(),
    actor_id: z.number(),
    actor_name: z.string(),
    role: z.string().describe("The actor's role at the time, or `owner` for the streamer's own changes to managers"),
    action: z.string().describe("Method and route, e.g. `PUT /v1/bots/{user}/commands/{id}`, or `managers.grant`"),
    target: z.string().describe("The path called, or the account a grant names"),
    status: z.number().describe("The HTTP status answered (403: refused)"),
    at: z.string(),
  })
  .meta({ id: "ManagerAuditEntry" });

/** `GET /v1/managers/audit`: newest first. */
export const managerAuditSchema = z.object({ data: z.array(managerAuditEntrySchema) });
