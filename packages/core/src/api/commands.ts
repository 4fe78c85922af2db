import { z } from "zod";

// The commands module declares its API schemas beside its routes (commands/modules/commands).
export { commandTestBodySchema, commandTestResultSchema, commandViewSchema } from "../commands/modules/commands/command-view.js";

/** The secret that signs the bot's outbound calls. */
export const signingSecretSchema = z.object({
  secret: z.string(),
  algorithm: z.literal("HMAC-SHA256"),
  headers: z.object({ timestamp: z.literal("X-Ovation-Timestamp"), signature: z.literal("X-Ovation-Signature") }),
});
