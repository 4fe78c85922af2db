import { z } from "zod";

/** The Laravel-style error body every error of the HTTP API answers with. */
export const errorBodySchema = z
  .object({
    message: z.string(),
    code: z.string(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .loose()
  .meta({ id: "Error" });

/** An integer id in a path. */
export const idParam = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** The `{user}` / `{bot}` segment of `/v1/bots/...`: `@me` or the caller's numeric user id. */
export const botUserParam = z.string().min(1).max(64);

/** A list answer wrapped in `data`. */
export const dataList = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });
