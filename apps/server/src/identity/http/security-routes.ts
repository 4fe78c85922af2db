import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { IdentityContext } from "../context.js";
import { requireEat } from "../eat/guard.js";
import { IdentityError } from "../errors.js";
import { requireUser } from "./auth.js";
import { parseInput } from "./validation.js";

const codeBody = z.object({ code: z.string("must be a string").trim().min(1, "is required").max(64, "must not be greater than 64 characters") }, { error: "must be a JSON object" });

/** `/api/users/@me/two-factor...`: TOTP enrolment, confirmation and removal (all need an EAT). */
export async function securityRoutes(app: FastifyInstance, ctx: IdentityContext): Promise<void> {
  const elevatedUser = async (request: FastifyRequest): Promise<number> => {
    const userId = requireUser(await ctx.auth.authenticate(request), "user:manage");
    requireEat(ctx.eat, request, userId);
    return userId;
  };

  app.get("/api/users/@me/two-factor", async (request) => {
    const userId = requireUser(await ctx.auth.authenticate(request), "user:read");
    const record = ctx.totp.enabled(userId);
    return { enabled: record !== undefined, recovery_codes_left: record?.recovery_code_hashes.length ?? 0 };
  });

  app.post("/api/users/@me/two-factor", async (request, reply) => {
    const userId = await elevatedUser(request);
    const user = ctx.users.get(userId);
    if (user === null) throw new IdentityError("OVATION_ERR_IDENTITY_UNAUTHENTICATED");
    return reply.code(201).send(await ctx.totp.start(userId, user.email ?? user.name));
  });

  app.post("/api/users/@me/two-factor/confirm", async (request) => {
    const userId = await elevatedUser(request);
    const body = parseInput(codeBody, request.body);
    return { enabled: true, recovery_codes: await ctx.totp.confirm(userId, body.code) };
  });

  app.delete("/api/users/@me/two-factor", async (request, reply) => {
    const userId = await elevatedUser(request);
    await ctx.totp.disable(userId);
    return reply.code(204).send();
  });
}
