import type { IncomingMessage } from "node:http";
import { parse as parseQuery } from "node:querystring";
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { InteractionResults } from "oidc-provider";
import { LoginThrottle, signInWithPassword } from "../accounts/login.js";
import type { IdentityContext } from "../context.js";
import { IdentityError } from "../identity-errors.js";
import { apiResource } from "../oidc/oauth-provider.js";
import { renderConsent } from "../pages/consent.js";
import { PAGE_SECURITY_HEADERS } from "../pages/layout.js";
import { renderMessage } from "../pages/message.js";
import { SECURITY_KEY_SCRIPT, SECURITY_KEY_SCRIPT_PATH, renderSecurityKey } from "../pages/security-key.js";
import { renderSignIn } from "../pages/sign-in.js";
import { startPlatformLogin } from "./platform-routes.js";
import { UnreadableBodyError, adaptClientRequestBody } from "./client-request-body.js";
import { HIDDEN_ROUTE } from "./route-docs.js";

type FormBody = Record<string, string | string[] | undefined>;

function field(body: unknown, name: string): string {
  const value = (body as FormBody | undefined)?.[name];
  return typeof value === "string" ? value : Array.isArray(value) ? (value[0] ?? "") : "";
}

function html(reply: FastifyReply, status: number, page: string): FastifyReply {
  return reply.code(status).headers({ ...PAGE_SECURITY_HEADERS, "cache-control": "no-store" }).type("text/html; charset=utf-8").send(page);
}

/** Finishes an interaction: oidc-provider answers the redirect on the raw response. */
async function finish(
  ctx: IdentityContext,
  request: FastifyRequest,
  reply: FastifyReply,
  result: InteractionResults,
  options: { extraCookie?: string; merge?: boolean } = {},
): Promise<void> {
  reply.hijack();
  if (options.extraCookie !== undefined) reply.raw.setHeader("set-cookie", [options.extraCookie]);
  // Consent keeps the login of the same request (else prompt=login would ask again after consent).
  await ctx.provider().interactionFinished(request.raw, reply.raw, result, { mergeWithLastSubmission: options.merge ?? false });
}

const expiredPage = () => renderMessage("Sign-in expired", "This sign-in request has expired or was already used. Go back to the app and start again.");

type InteractionDetails = Awaited<ReturnType<ReturnType<IdentityContext["provider"]>["interactionDetails"]>>;

/** The interaction of a page request, or null after answering the "expired" page (unknown or used uid). */
async function interactionOf(ctx: IdentityContext, request: FastifyRequest, reply: FastifyReply): Promise<InteractionDetails | null> {
  try {
    return await ctx.provider().interactionDetails(request.raw, reply.raw);
  } catch {
    html(reply, 400, expiredPage());
    return null;
  }
}

/**
 * `/oauth/*`: oidc-provider (authorize, token, revoke, introspect, discovery...) mounted on the raw
 * request, plus the server-rendered interaction pages (sign-in, consent, platform login).
 */
export async function oauthRoutes(app: FastifyInstance, ctx: IdentityContext): Promise<void> {
  const throttle = new LoginThrottle(ctx.clock, ctx.timeLogs);
  const platformButtons = () => [...ctx.platforms.values()].map((p) => ({ platform: p.platform, displayName: p.displayName }));

  // oidc-provider reads its own request bodies: this context leaves the stream untouched.
  await app.register(async (mount) => {
    mount.removeAllContentTypeParsers();
    mount.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined));
    let handler: ReturnType<ReturnType<IdentityContext["provider"]>["callback"]> | undefined;
    const callback = (req: IncomingMessage, res: FastifyReply["raw"]) => {
      handler ??= ctx.provider().callback();
      return handler(req, res);
    };
    mount.all("/oauth/*", HIDDEN_ROUTE, async (request, reply) => {
      reply.hijack();
      const raw = request.raw as IncomingMessage & { originalUrl?: string };
      raw.originalUrl = raw.url;
      const rest = (raw.url ?? "/").slice("/oauth".length);
      raw.url = rest.startsWith("/") ? rest : `/${rest}`;
      try {
        await adaptClientRequestBody(raw, raw.url.split("?")[0] ?? "");
      } catch (error) {
        if (!(error instanceof UnreadableBodyError)) throw error;
        reply.raw.writeHead(400, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" }).end(JSON.stringify({ error: "invalid_request", error_description: error.message }));
        return;
      }
      await callback(raw, reply.raw);
    });
  });

  await app.register(async (pages) => {
    pages.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: 16_384 }, (_request, body, done) => {
      done(null, parseQuery(String(body)));
    });

    pages.get<{ Params: { uid: string } }>("/oauth/interaction/:uid", HIDDEN_ROUTE, async (request, reply) => {
      const provider = ctx.provider();
      const details = await interactionOf(ctx, request, reply);
      if (details === null) return reply;
      const client = await provider.Client.find(String(details.params.client_id));
      const clientName = client?.clientName ?? String(details.params.client_id);
      if (details.prompt.name === "login") {
        const sessionUser = ctx.sessions.userOfCookieHeader(request.headers.cookie);
        const onlyNoSession = details.prompt.reasons.length === 1 && details.prompt.reasons[0] === "no_session";
        if (sessionUser !== null && onlyNoSession && ctx.users.get(sessionUser)) {
          await finish(ctx, request, reply, { login: { accountId: String(sessionUser) } });
          return reply;
        }
        return html(reply, 200, renderSignIn({ uid: details.uid, clientName, platforms: platformButtons() }));
      }
      if (details.prompt.name === "consent") {
        const accountId = details.session?.accountId;
        const user = accountId === undefined ? null : ctx.users.get(Number(accountId));
        const missing = details.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
        // Our scopes are both resource scopes and static scopes, so they can be listed twice.
        const scopes = [...new Set([...(missing.missingResourceScopes?.[apiResource(ctx.idBase())] ?? []), ...(missing.missingOIDCScope ?? []).filter((s) => s !== "openid")])];
        return html(reply, 200, renderConsent({ uid: details.uid, clientName, userName: user?.name ?? "unknown", scopes }));
      }
      return html(reply, 400, renderMessage("Sign-in problem", `Unsupported step: ${details.prompt.name}`));
    });

    pages.post<{ Params: { uid: string } }>("/oauth/interaction/:uid/login", HIDDEN_ROUTE, async (request, reply) => {
      const provider = ctx.provider();
      const details = await interactionOf(ctx, request, reply);
      if (details === null) return reply;
      if (details.prompt.name !== "login") return html(reply, 400, expiredPage());
      const email = field(request.body, "email");
      const password = field(request.body, "password");
      const outcome = await signInWithPassword(ctx, throttle, { email, password, totp: field(request.body, "totp"), source: request.ip });
      if (outcome.ok === false) {
        const client = await provider.Client.find(String(details.params.client_id));
        if (outcome.retryAfter !== undefined) reply.header("retry-after", String(outcome.retryAfter));
        // After a right password and a wrong second-factor code, the password stays filled in.
        const keepPassword = outcome.field === "totp" ? password : undefined;
        return html(
          reply,
          outcome.status,
          renderSignIn({ uid: details.uid, clientName: client?.clientName ?? "An app", email, error: outcome.message, ...(outcome.field ? { errorField: outcome.field } : {}), ...(keepPassword ? { password: keepPassword } : {}), platforms: platformButtons() }),
        );
      }
      if (outcome.ok === "security-key") {
        return html(reply, 200, renderSecurityKey({ uid: details.uid, options: await ctx.webauthn.startSignIn(outcome.user.id, details.uid) }));
      }
      const cookie = await ctx.sessions.create(outcome.user.id);
      await finish(ctx, request, reply, { login: { accountId: String(outcome.user.id), remember: true } }, { extraCookie: cookie });
      return reply;
    });

    pages.post<{ Params: { uid: string } }>("/oauth/interaction/:uid/security-key", HIDDEN_ROUTE, async (request, reply) => {
      const details = await interactionOf(ctx, request, reply);
      if (details === null) return reply;
      if (details.prompt.name !== "login") return html(reply, 400, expiredPage());
      let userId: number;
      try {
        const assertion = JSON.parse(field(request.body, "assertion")) as unknown;
        if (typeof assertion !== "object" || assertion === null || typeof (assertion as { id?: unknown }).id !== "string") throw new IdentityError("OVATION_ERR_IDENTITY_WEBAUTHN_FAILED");
        userId = await ctx.webauthn.finishSignIn(details.uid, assertion as AuthenticationResponseJSON);
      } catch (error) {
        const message = error instanceof IdentityError ? error.message : "The security key answer could not be read.";
        const client = await ctx.provider().Client.find(String(details.params.client_id));
        return html(reply, 401, renderSignIn({ uid: details.uid, clientName: client?.clientName ?? "An app", error: `${message} Sign in again.`, platforms: platformButtons() }));
      }
      const cookie = await ctx.sessions.create(userId);
      await finish(ctx, request, reply, { login: { accountId: String(userId), remember: true, amr: ["pwd", "hwk"] } }, { extraCookie: cookie });
      return reply;
    });

    pages.get(SECURITY_KEY_SCRIPT_PATH, HIDDEN_ROUTE, async (_request, reply) =>
      reply.header("cache-control", "no-cache").header("x-content-type-options", "nosniff").type("application/javascript; charset=utf-8").send(SECURITY_KEY_SCRIPT),
    );

    pages.post<{ Params: { uid: string } }>("/oauth/interaction/:uid/confirm", HIDDEN_ROUTE, async (request, reply) => {
      const provider = ctx.provider();
      const details = await interactionOf(ctx, request, reply);
      if (details === null) return reply;
      const accountId = details.session?.accountId;
      if (details.prompt.name !== "consent" || accountId === undefined) return html(reply, 400, expiredPage());
      const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      if (!grant) return html(reply, 400, expiredPage());
      const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(" "));
      const grantId = await grant.save();
      await finish(ctx, request, reply, { consent: details.grantId ? {} : { grantId } }, { merge: true });
      return reply;
    });

    pages.post<{ Params: { uid: string } }>("/oauth/interaction/:uid/abort", HIDDEN_ROUTE, async (request, reply) => {
      if ((await interactionOf(ctx, request, reply)) === null) return reply;
      await finish(ctx, request, reply, { error: "access_denied", error_description: "The user denied the request." });
      return reply;
    });

    pages.get<{ Params: { uid: string; platform: string } }>("/oauth/interaction/:uid/platform/:platform", HIDDEN_ROUTE, async (request, reply) => {
      const details = await interactionOf(ctx, request, reply);
      if (details === null) return reply;
      return startPlatformLogin(ctx, request, reply, { platform: request.params.platform, mode: "login", userId: null, interactionUid: details.uid });
    });
  });
}
