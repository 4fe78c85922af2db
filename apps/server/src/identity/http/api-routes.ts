import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import type {
  connectionViewSchema,
  createdTokenSchema,
  eatIssuedSchema,
  eatRequestSchema,
  eatValidSchema,
  emailChangeSchema,
  linkUrlSchema,
  messageSchema,
  personalAccessTokenSchema,
} from "@ovation/core/api";
import {
  changePasswordBodySchema as changePasswordBody,
  codeBodySchema as codeBody,
  linkBodySchema as linkBody,
  connectionsQuerySchema as connectionsQuery,
  connectionParamsSchema as connectionParams,
  connectionPatchSchema as connectionPatch,
  emailBodySchema as emailBody,
  passwordBodySchema as passwordBody,
  tokenBodySchema as tokenBody,
  tokenParamsSchema as tokenParams,
} from "@ovation/core/api";
import { definedKeys, normalizePlatform } from "@ovation/core";
import { EmailChangeLimits, confirmEmailChange, emailChangeTarget, pendingEmail, startEmailChange } from "../accounts/email-change.js";
import { hashPassword, passwordProblems, verifyPassword } from "../accounts/passwords.js";
import { connectionView, userView } from "../accounts/user-view.js";
import { signOutEverywhere } from "../accounts/sign-out.js";
import type { IdentityContext } from "../context.js";
import type { ConnectionRecord } from "../../store/records.js";
import { unservedStatus } from "../connection-status.js";
import { removeAccountArtifacts } from "../oidc/adapter.js";
import { requireEat } from "../eat/guard.js";
import { IdentityError, identityFieldError } from "../identity-errors.js";
import { PAGE_SECURITY_HEADERS } from "../pages/layout.js";
import { renderConfirmEmail } from "../pages/confirm-email.js";
import { renderMessage } from "../pages/message.js";
import { startLinkRequest } from "./platform-routes.js";
import { allowedContinue } from "./page-routes.js";
import { hasScope } from "../scope-descriptions.js";
import type { IdentityPrincipal } from "../bearer-auth.js";
import { requireUser } from "../bearer-auth.js";
import { apiDoc } from "./route-docs.js";
import { parseInput } from "./validation.js";


/** `/api/...`: the current user, connections, email and password, EATs, personal access tokens, deletion. */
export async function apiRoutes(app: FastifyInstance, ctx: IdentityContext): Promise<void> {
  const principal = (request: FastifyRequest): Promise<IdentityPrincipal> => ctx.auth.authenticate(request);
  const view = (c: ConnectionRecord) =>
    connectionView(c, ctx.platforms.get(c.platform), ctx.connections.tokensOf(c.id), ctx.connectionStatus?.(c) ?? unservedStatus(c.platform));
  const emailLimits = new EmailChangeLimits(ctx.clock, ctx.timeLogs);
  const currentUser = (userId: number) => {
    const user = ctx.users.get(userId);
    if (user === null) throw new IdentityError("OVATION_ERR_IDENTITY_UNAUTHENTICATED");
    return user;
  };
  const meView = (userId: number) => userView(currentUser(userId), { two_factor_enabled: ctx.totp.enabled(userId) !== undefined, pending_email: pendingEmail(ctx, userId) });
  /** A sensitive action needs an EAT whenever the account can receive one (it has an email address). */
  const requireEatIfPossible = (request: FastifyRequest, userId: number) => {
    if (currentUser(userId).email !== null) requireEat(ctx.eat, request, userId);
  };

  app.get("/api/users/@me", apiDoc("The current user"), async (request) => meView(requireUser(await principal(request), "user:read")));
  // Laravel Socialite's provider for the reference calls this to learn who the token belongs to.
  app.get("/api/users", apiDoc("The user of the token (same body as /api/users/@me)"), async (request) => meView(requireUser(await principal(request), "user:read")));

  app.get("/api/users/@me/connections", apiDoc("The platform accounts linked to the current user (`?platform=` filters)"), async (request) => {
    const userId = requireUser(await principal(request), "connections");
    const query = parseInput(connectionsQuery, request.query);
    // An unknown platform filters everything out (the reference answers an empty list, not 422).
    const wanted = query.platform === undefined ? undefined : normalizePlatform(query.platform);
    return ctx.connections
      .listForUser(userId)
      .filter((c) => wanted === undefined || c.platform === wanted)
      .map(view) satisfies z.output<typeof connectionViewSchema>[];
  });

  /** A connection of the current user, or 404 (another user's id is not found either). */
  const ownConnection = (userId: number, params: unknown) => {
    const { id } = parseInput(connectionParams, params);
    const connection = ctx.connections.get(id);
    if (connection === null || connection.user_id !== userId) throw new IdentityError("OVATION_ERR_IDENTITY_NOT_FOUND");
    return connection;
  };

  app.patch<{ Params: { id: string } }>("/api/users/@me/connections/:id", apiDoc("Switch the bot on or off for a linked channel (`bot_enabled`)"), async (request) => {
    const userId = requireUser(await principal(request), "connections", "user:manage");
    const connection = ownConnection(userId, request.params);
    const body = parseInput(connectionPatch, request.body ?? {});
    const updated = ctx.connections.setBotEnabled(connection.id, body.bot_enabled) ?? connection;
    return view(updated) satisfies z.output<typeof connectionViewSchema>;
  });

  app.delete<{ Params: { id: string } }>("/api/users/@me/connections/:id", apiDoc("Unlink a platform account: the bot stops serving it and its tokens are deleted"), async (request, reply) => {
    const userId = requireUser(await principal(request), "connections", "user:manage");
    const connection = ownConnection(userId, request.params);
    ctx.connections.remove(connection.id);
    return reply.code(204).send();
  });

  app.post<{ Params: { platform: string } }>(
    "/api/users/@me/connections/:platform/link",
    apiDoc("Start linking a platform account: the URL to open (its page says what is linked to which account and continues only in a browser signed in as you, or with `code`); `return_to` is where the browser goes afterwards"),
    async (request, reply) => {
      const userId = requireUser(await principal(request), "connections", "user:manage");
      const body = parseInput(linkBody, request.body ?? {});
      let returnTo: string | undefined;
      if (body.return_to !== undefined) {
        const allowed = allowedContinue(ctx, body.return_to);
        if (allowed === null) throw identityFieldError("return_to", "The return_to field must be an address of this server or of a registered app.");
        returnTo = allowed;
      }
      const started = await startLinkRequest(ctx, { platform: normalizePlatform(request.params.platform), userId, ...definedKeys({ returnTo }) });
      return reply.code(201).send(started satisfies z.output<typeof linkUrlSchema>);
    },
  );

  app.post("/api/users/@me/update-email", apiDoc("Change the email address (mails a verification link; the same address resends it; `email` in the body or the query)", { eat: true }), async (request, reply) => {
    const userId = requireUser(await principal(request), "user:manage");
    requireEatIfPossible(request, userId);
    // The reference's client library sends the address as a query parameter with no body.
    const fromQuery = (request.query as Record<string, unknown> | undefined)?.email;
    const bodyEmpty = request.body === undefined || request.body === null || (typeof request.body === "object" && Object.keys(request.body).length === 0);
    const input = fromQuery !== undefined && bodyEmpty ? { email: fromQuery } : request.body;
    const body = parseInput(emailBody, input);
    const result = await startEmailChange(ctx, emailLimits, currentUser(userId), body.email);
    return reply.code(202).send({ message: result.status === "resent" ? "The verification mail was sent again." : "A verification mail was sent.", ...result } satisfies z.output<typeof emailChangeSchema>);
  });

  const verifyPage = (reply: FastifyReply, status: number, page: string) => reply.code(status).headers({ ...PAGE_SECURITY_HEADERS, "cache-control": "no-store" }).type("text/html; charset=utf-8").send(page);
  const expiredLink = () => renderMessage("Link expired", "This confirmation link is unknown or has expired. Ask for a new one.");
  const linkToken = (value: unknown) => (typeof value === "string" && value.length > 0 && value.length < 200 ? value : null);

  // Opening the link (a GET, which mail scanners prefetch) only shows a button; the POST confirms.
  app.get<{ Querystring: { token?: unknown } }>("/api/email/verify", apiDoc("The page of the link in the verification mail (confirms nothing by itself)", { public: true }), async (request, reply) => {
    const token = linkToken(request.query.token);
    const email = token === null ? null : emailChangeTarget(ctx, token);
    return email === null ? verifyPage(reply, 400, expiredLink()) : verifyPage(reply, 200, renderConfirmEmail(email, token ?? ""));
  });

  await app.register(async (form) => {
    form.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: 4096 }, (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))));
    form.post("/api/email/verify", apiDoc("Confirm an email address (the button of the verification page)", { public: true }), async (request, reply) => {
      const token = linkToken((request.body as Record<string, unknown> | undefined)?.token);
      const user = token === null ? null : await confirmEmailChange(ctx, token);
      return user ? verifyPage(reply, 200, renderMessage("Email confirmed", `${user.email ?? ""} is now the email address of your account.`)) : verifyPage(reply, 400, expiredLink());
    });
  });

  app.post("/api/users/@me/associate-password", apiDoc("Give a shadow account its first password", { eat: true }), async (request, reply) => {
    const userId = requireUser(await principal(request), "user:manage");
    const user = currentUser(userId);
    if (user.password_hash !== null) throw new IdentityError("OVATION_ERR_IDENTITY_NOT_SHADOW");
    requireEatIfPossible(request, userId);
    const body = parseInput(passwordBody, request.body);
    const problems = passwordProblems(body.password, user);
    if (problems.length > 0) throw new IdentityError("OVATION_ERR_IDENTITY_VALIDATION", { message: problems[0] ?? "", errors: { password: problems } });
    ctx.users.update(userId, { password_hash: await hashPassword(body.password) });
    return reply.code(200).send(meView(userId));
  });

  app.post("/api/users/@me/password", apiDoc("Change the password", { eat: true }), async (request, reply) => {
    const userId = requireUser(await principal(request), "user:manage");
    requireEat(ctx.eat, request, userId);
    const body = parseInput(changePasswordBody, request.body);
    const user = currentUser(userId);
    if (user.password_hash === null || !(await verifyPassword(user.password_hash, body.current_password))) {
      throw new IdentityError("OVATION_ERR_IDENTITY_PASSWORD_INCORRECT", { errors: { current_password: ["The password is incorrect."] } });
    }
    const problems = passwordProblems(body.password, user);
    if (problems.length > 0) throw new IdentityError("OVATION_ERR_IDENTITY_VALIDATION", { message: problems[0] ?? "", errors: { password: problems } });
    ctx.users.update(userId, { password_hash: await hashPassword(body.password) });
    await signOutEverywhere(ctx, userId);
    return reply.code(200).send({ message: "The password was changed; every browser session was signed out." } satisfies z.output<typeof messageSchema>);
  });

  app.post("/api/eat/request-verification", apiDoc("Mail a one-time code for an elevated access token"), async (request, reply) => {
    const user = currentUser(requireUser(await principal(request)));
    const sent = await ctx.eat.requestVerification(user);
    const message = sent.delivery === "email" ? "A verification code was sent to your email address." : "No mail server is configured (OVATION_SMTP_URL): the verification code is in the server's log.";
    return reply.code(202).send({ message, ...sent } satisfies z.output<typeof eatRequestSchema>);
  });

  app.post("/api/eat/verify-code", apiDoc("Exchange the one-time code for an elevated access token"), async (request, reply) => {
    const userId = requireUser(await principal(request));
    const body = parseInput(codeBody, request.body);
    return reply.code(201).send((await ctx.eat.verifyCode(userId, body.code)) satisfies z.output<typeof eatIssuedSchema>);
  });

  app.get("/api/eat/verify", apiDoc("Check an elevated access token (200 valid, 401 not)", { eat: true }), async (request) => {
    const userId = requireUser(await principal(request));
    return { valid: true as const, ...requireEat(ctx.eat, request, userId) } satisfies z.output<typeof eatValidSchema>;
  });

  app.get("/api/users/@me/tokens", apiDoc("List personal access tokens"), async (request) => {
    const userId = requireUser(await principal(request), "user:manage:credentials");
    return ctx.tokens.listForUser(userId).map(({ token_hash: _hash, ...rest }) => rest) satisfies z.output<typeof personalAccessTokenSchema>[];
  });

  app.post("/api/users/@me/tokens", apiDoc("Create a personal access token (shown once)", { eat: true }), async (request, reply) => {
    const caller = await principal(request);
    const userId = requireUser(caller, "user:manage:credentials");
    requireEat(ctx.eat, request, userId);
    const body = parseInput(tokenBody, request.body);
    const beyond = body.scopes.filter((s) => !hasScope(caller.scopes, s));
    if (beyond.length > 0) throw identityFieldError("scopes", `The scopes field may only name scopes your token has (not: ${beyond.join(", ")}).`);
    const { record, token } = ctx.tokens.create({ user_id: userId, name: body.name, scopes: body.scopes });
    const { token_hash: _hash, ...view } = record;
    return reply.code(201).send({ ...view, token } satisfies z.output<typeof createdTokenSchema>);
  });

  app.delete<{ Params: { id: string } }>("/api/users/@me/tokens/:id", apiDoc("Revoke a personal access token", { eat: true }), async (request, reply: FastifyReply) => {
    const userId = requireUser(await principal(request), "user:manage:credentials");
    requireEat(ctx.eat, request, userId);
    const { id } = parseInput(tokenParams, request.params);
    const record = ctx.tokens.get(id);
    if (record === null || record.user_id !== userId) throw new IdentityError("OVATION_ERR_IDENTITY_NOT_FOUND");
    ctx.tokens.revoke(id);
    return reply.code(204).send();
  });

  app.delete("/api/users/@me", apiDoc("Delete the account", { eat: true }), async (request, reply) => {
    const userId = requireUser(await principal(request), "user:manage");
    requireEatIfPossible(request, userId);
    await deleteAccount(ctx, userId);
    await ctx.onAccountDeleted?.(userId);
    return reply.code(204).send();
  });
}

/**
 * Deletes an account as far as identity goes: signs every session and token out, unlinks its
 * platforms, drops its second factors and empties its profile (the numeric id stays reserved, so
 * data of other modules keyed by it never passes to someone else).
 */
export async function deleteAccount(ctx: IdentityContext, userId: number): Promise<void> {
  for (const c of ctx.connections.listForUser(userId)) ctx.connections.remove(userId, c.id);
  for (const t of ctx.tokens.listForUser(userId)) if (t.revoked_at === null) ctx.tokens.revoke(t.id);
  ctx.users.update(userId, { name: `deleted-user-${userId}`, email: null, email_verified_at: null, password_hash: null, avatar: null });
  await removeAccountArtifacts(ctx.oidcStorage, userId, "everything");
  const data = ctx.store.data;
  data.totp = data.totp.filter((t) => t.user_id !== userId);
  data.webauthn_credentials = data.webauthn_credentials.filter((c) => c.user_id !== userId);
  data.pending_key_logins = data.pending_key_logins.filter((p) => p.user_id !== userId);
  data.email_verifications = data.email_verifications.filter((v) => v.user_id !== userId);
  data.eat_codes = data.eat_codes.filter((c) => c.user_id !== userId);
  data.sessions = data.sessions.filter((s) => s.user_id !== userId);
  data.password_resets = data.password_resets.filter((r) => r.user_id !== userId);
  await ctx.eat.revokeAll(userId);
}
