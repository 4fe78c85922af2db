import type { FastifyInstance, FastifyReply } from "fastify";
import type { IdentityContext } from "../context.js";
import { isCountersUnavailable } from "../failure-backoff.js";
import { PasswordResetLimits, completePasswordReset, passwordResetValid, requestPasswordReset } from "../accounts/password-reset.js";
import { IdentityError } from "../identity-errors.js";
import { renderLoggedOut } from "../pages/logout.js";
import { renderMessage } from "../pages/message.js";
import { renderForgotPassword, renderResetPassword } from "../pages/password-reset-pages.js";
import { FAVICON_SVG, renderHome, renderSignup } from "../pages/home.js";
import { PAGE_SECURITY_HEADERS } from "../pages/layout.js";
import { SESSION_COOKIE, readCookie } from "../session.js";
import { HIDDEN_ROUTE } from "./route-docs.js";

/** The cookie that carries the authorization server's session id (oidc/provider.ts). */
export const OIDC_SESSION_COOKIE = "_ovation_oidc_session";

function page(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).headers({ ...PAGE_SECURITY_HEADERS, "cache-control": "no-store" }).type("text/html; charset=utf-8").send(html);
}

/**
 * A `continue` address the server may send the browser to: on the identity host itself or on the
 * origin of a registered client's redirect URI. Anything else is ignored (no open redirect).
 */
export function allowedContinue(ctx: IdentityContext, value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return null;
  const base = new URL(ctx.idBase());
  const target = URL.parse(value, base.href);
  if (target === null || (target.protocol !== "https:" && target.protocol !== "http:")) return null;
  if (target.origin === base.origin) return target.href;
  const origins = new Set(ctx.clients.all().flatMap((c) => c.redirect_uris.map((u) => URL.parse(u)?.origin ?? "")));
  return origins.has(target.origin) ? target.href : null;
}

/** Ends this browser's identity session and authorization-server session; returns the cookies that clear them. */
export async function signOutBrowser(ctx: IdentityContext, cookieHeader: string | undefined): Promise<string[]> {
  const cleared = [await ctx.sessions.destroy(readCookie(cookieHeader, SESSION_COOKIE))];
  const oidcSession = readCookie(cookieHeader, OIDC_SESSION_COOKIE);
  if (oidcSession !== undefined && oidcSession.length > 0 && oidcSession.length < 200) {
    const session = await ctx.provider().Session.find(oidcSession);
    await session?.destroy();
  }
  for (const name of [OIDC_SESSION_COOKIE, `${OIDC_SESSION_COOKIE}.sig`]) cleared.push(`${name}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`);
  return cleared;
}

/**
 * Pages of the identity host outside the OAuth flow: `/` and `/signup` (HTML, not JSON),
 * `/favicon.ico`, `GET /logout?continue=` (the reference's sign-out link) and a GET on any step of
 * a sign-in (`/oauth/interaction/<uid>/login`...), which goes back to the step's page.
 */
export async function pageRoutes(app: FastifyInstance, ctx: IdentityContext): Promise<void> {
  // The host may serve its own front page (a dashboard); the identity page is the fallback.
  if (!app.hasRoute({ method: "GET", url: "/" })) app.get("/", HIDDEN_ROUTE, async (_request, reply) => page(reply, 200, renderHome()));
  app.get("/signup", HIDDEN_ROUTE, async (_request, reply) => page(reply, 200, renderSignup()));
  app.get("/favicon.ico", HIDDEN_ROUTE, async (_request, reply) => reply.header("cache-control", "public, max-age=86400").type("image/svg+xml").send(FAVICON_SVG));

  app.get<{ Querystring: { continue?: unknown } }>("/logout", HIDDEN_ROUTE, async (request, reply) => {
    reply.header("set-cookie", await signOutBrowser(ctx, request.headers.cookie));
    const target = allowedContinue(ctx, request.query.continue);
    return target === null ? page(reply, 200, renderLoggedOut()) : reply.header("cache-control", "no-store").redirect(target, 303);
  });

  await passwordResetRoutes(app, ctx);

  app.get<{ Params: { uid: string; step: string } }>("/oauth/interaction/:uid/:step", HIDDEN_ROUTE, async (request, reply) =>
    reply.redirect(`/oauth/interaction/${encodeURIComponent(request.params.uid)}`, 303),
  );
}

/**
 * "Forgot your password?": `GET/POST /password/forgot` (the address; the same answer whether or not
 * an account uses it) and `GET/POST /password/reset` (the link's page; only the POST changes the
 * password, then every browser is signed out).
 */
async function passwordResetRoutes(app: FastifyInstance, ctx: IdentityContext): Promise<void> {
  const limits = new PasswordResetLimits(ctx.clock, ctx.timeLogs);
  const expired = () => renderMessage("Link expired", "This password reset link is unknown, expired or already used. Ask for a new one.");
  await app.register(async (forms) => {
    forms.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: 4096 }, (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))));
    const field = (body: unknown, name: string): string => {
      const value = (body as Record<string, unknown> | undefined)?.[name];
      return typeof value === "string" ? value : "";
    };

    forms.get("/password/forgot", HIDDEN_ROUTE, async (_request, reply) => page(reply, 200, renderForgotPassword()));
    forms.post("/password/forgot", HIDDEN_ROUTE, async (request, reply) => {
      const email = field(request.body, "email").trim();
      if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254) return page(reply, 422, renderForgotPassword({ error: "Enter the email address of your account." }));
      try {
        await requestPasswordReset(ctx, limits, { email, source: request.ip });
      } catch (error) {
        if (isCountersUnavailable(error)) {
          reply.header("retry-after", "30");
          return page(reply, 503, renderForgotPassword({ error: "Reset mails are unavailable for a moment. Try again in 30 seconds." }));
        }
        if (!(error instanceof IdentityError) || error.status !== 429) throw error;
        const seconds = Number(error.toBody().retry_after ?? 60);
        reply.header("retry-after", String(seconds));
        return page(reply, 429, renderForgotPassword({ error: `Too many reset mails. Try again in ${Math.ceil(seconds / 60)} minutes.` }));
      }
      return page(reply, 200, renderMessage("Check your mail", "If an account uses this address, a link to choose a new password is on its way. It is valid for one hour."));
    });

    forms.get<{ Querystring: { token?: unknown } }>("/password/reset", HIDDEN_ROUTE, async (request, reply) => {
      const token = typeof request.query.token === "string" && request.query.token.length < 200 ? request.query.token : "";
      return token.length > 0 && passwordResetValid(ctx, token) ? page(reply, 200, renderResetPassword({ token })) : page(reply, 400, expired());
    });
    forms.post("/password/reset", HIDDEN_ROUTE, async (request, reply) => {
      const token = field(request.body, "token");
      const result = token.length > 0 && token.length < 200 ? await completePasswordReset(ctx, token, field(request.body, "password")) : null;
      if (result === null) return page(reply, 400, expired());
      if (!result.ok) return page(reply, 422, renderResetPassword({ token, errors: result.problems }));
      return page(reply, 200, renderMessage("Password changed", "Your password was changed and every browser was signed out. Sign in again from your app."));
    });
  });
}
