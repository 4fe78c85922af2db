import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { z } from "zod";
import { codeBodySchema as codeBody, securityKeyBodySchema as keyBody } from "@ovation/core/api";
import type { securityKeyOptionsSchema, securityKeySchema, totpConfirmedSchema, totpEnrolmentSchema, twoFactorStatusSchema } from "@ovation/core/api";
import { signOutEverywhere } from "../accounts/sign-out.js";
import type { IdentityContext } from "../context.js";
import { requireEat } from "../eat/guard.js";
import { IdentityError } from "../identity-errors.js";
import { requireUser } from "../bearer-auth.js";
import { apiDoc } from "./route-docs.js";
import { parseInput } from "./validation.js";


/** `/api/users/@me/two-factor...` (TOTP) and `/api/users/@me/webauthn...` (hardware keys); changes need an EAT. */
export async function securityRoutes(app: FastifyInstance, ctx: IdentityContext): Promise<void> {
  const elevatedUser = async (request: FastifyRequest): Promise<number> => {
    const userId = requireUser(await ctx.auth.authenticate(request), "user:manage");
    requireEat(ctx.eat, request, userId);
    return userId;
  };

  app.get("/api/users/@me/two-factor", apiDoc("Two-step verification status"), async (request) => {
    const userId = requireUser(await ctx.auth.authenticate(request), "user:read");
    const record = ctx.totp.enabled(userId);
    return { enabled: record !== undefined, recovery_codes_left: record?.recovery_code_hashes.length ?? 0 } satisfies z.output<typeof twoFactorStatusSchema>;
  });

  app.post("/api/users/@me/two-factor", apiDoc("Start TOTP enrolment", { eat: true }), async (request, reply) => {
    const userId = await elevatedUser(request);
    const user = ctx.users.get(userId);
    if (user === null) throw new IdentityError("OVATION_ERR_IDENTITY_UNAUTHENTICATED");
    return reply.code(201).send((await ctx.totp.start(userId, user.email ?? user.name)) satisfies z.output<typeof totpEnrolmentSchema>);
  });

  app.post("/api/users/@me/two-factor/confirm", apiDoc("Confirm TOTP enrolment (returns recovery codes once)", { eat: true }), async (request) => {
    const userId = await elevatedUser(request);
    const body = parseInput(codeBody, request.body);
    return { enabled: true as const, recovery_codes: await ctx.totp.confirm(userId, body.code) } satisfies z.output<typeof totpConfirmedSchema>;
  });

  app.post("/api/users/@me/two-factor/recovery-codes", apiDoc("Replace the recovery codes (returns the new ones once; the old ones stop working)", { eat: true }), async (request) => {
    const userId = await elevatedUser(request);
    return { recovery_codes: await ctx.totp.regenerateRecoveryCodes(userId) };
  });

  app.delete("/api/users/@me/two-factor", apiDoc("Turn two-step verification off", { eat: true }), async (request, reply) => {
    const userId = await elevatedUser(request);
    await ctx.totp.disable(userId);
    await signOutEverywhere(ctx, userId);
    return reply.code(204).send();
  });

  app.get("/api/users/@me/webauthn", apiDoc("List hardware keys"), async (request) => ctx.webauthn.list(requireUser(await ctx.auth.authenticate(request), "user:read")) satisfies z.output<typeof securityKeySchema>[]);

  app.post("/api/users/@me/webauthn/options", apiDoc("Registration options for a new hardware key", { eat: true }), async (request) => {
    const userId = await elevatedUser(request);
    const user = ctx.users.get(userId);
    if (user === null) throw new IdentityError("OVATION_ERR_IDENTITY_UNAUTHENTICATED");
    return (await ctx.webauthn.registrationOptions(user)) satisfies z.output<typeof securityKeyOptionsSchema>;
  });

  app.post("/api/users/@me/webauthn", apiDoc("Register a hardware key", { eat: true }), async (request, reply) => {
    const userId = await elevatedUser(request);
    const body = parseInput(keyBody, request.body);
    return reply.code(201).send((await ctx.webauthn.register(userId, body.name, body.response as unknown as RegistrationResponseJSON)) satisfies z.output<typeof securityKeySchema>);
  });

  app.delete<{ Params: { id: string } }>("/api/users/@me/webauthn/:id", apiDoc("Remove a hardware key", { eat: true }), async (request, reply) => {
    const userId = await elevatedUser(request);
    await ctx.webauthn.remove(userId, request.params.id);
    await signOutEverywhere(ctx, userId);
    return reply.code(204).send();
  });
}
