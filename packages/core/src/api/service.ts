import { z } from "zod";

/** `GET /health`. */
export const healthSchema = z.object({ status: z.literal("ok"), uptime_seconds: z.number(), server_id: z.string() });

/** `GET /server-ids`: ids a socket client may put in the `serverid` cookie. */
export const serverIdsSchema = z.array(z.string());
