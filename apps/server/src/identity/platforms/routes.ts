import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { PLATFORMS } from "@ovation/core";
import type { UserRecord } from "../../store/records.js";
import type { IdentityContext } from "../context.js";
import { IdentityError } from "../errors.js";
import { PAGE_SECURITY_HEADERS } from "../pages/layout.js";
import { renderMessage } from "../pages/message.js";
import { allowedContinue } from "../http/page-routes.js";
import { HIDDEN_ROUTE } from "../http/route-docs.js";
import { constantTimeEqual, randomSecret, sha256Hex } from "../../crypto/secrets.js";
import { readCookie } from "../session.js";
import { authorizationUrl, fetchPlatformProfile } from "./client.js";
import type { PlatformProfile } from "./settings.js";

/** How long a platform login may take between leaving and coming back. */
const STATE_TTL_MS = 10 * 60 * 1000;

/**
 * The cookie that ties a platform sign-in to the browser that started it: the callback of a flow
 * started in a browser is refused in any other browser, so nobody can sign a victim in to the
 * attacker's account by sending them a callback link (login CSRF). Scoped to the callback path.
 */
export const PLATFORM_BINDING_COOKIE = "ovation_platform_binding";

/** The binding secret of this browser (reused when it already has one, so parallel sign-ins work) and its Set-Cookie value. */
function browserBinding(ctx: IdentityContext, cookieHeader: string | undefined): { raw: string; cookie: string } {
  const existing = readCookie(cookieHeader, PLATFORM_BINDING_COOKIE);
  const raw = existing !== undefined && /^[A-Za-z0-9_-]{32,64}$/.test(existing) ? existing : randomSecret(24);
  const secure = ctx.idBase().startsWith("https:") ? "; Secure" : "";
  return { raw, cookie: `${PLATFORM_BINDING_COOKIE}=${raw}; Path=/oauth/platform/; HttpOnly; SameSite=Lax; Max-Age=${STATE_TTL_MS / 1000}${secure}` };
}

/** Where every platform sends the browser back: register this redirect URI with the platform's app. */
export function platformRedirectUri(ctx: IdentityContext, platform: string): string {
  return `${ctx.idBase()}/oauth/platform/${encodeURIComponent(platform)}/callback`;
}

/** Stores a pending login or link and returns the platform's authorization URL. */
export async function platformAuthorizationUrl(
  ctx: IdentityContext,
  input: { platform: string; mode: "login" | "link"; userId: number | null; interactionUid: string | null; continueUrl?: string; bindingHash?: string },
): Promise<string> {
  const settings = ctx.platforms.get(input.platform);
  if (settings === undefined) throw new IdentityError("OVATION_ERR_IDENTITY_PLATFORM_UNKNOWN", { extra: { platform: input.platform } });
  const state = randomSecret(24);
  const codeVerifier = randomSecret(32);
  const now = ctx.clock();
  const data = ctx.store.data;
  data.platform_states = data.platform_states.filter((s) => s.expires_at > now);
  data.platform_states.push({
    state_hash: sha256Hex(state),
    platform: input.platform,
    mode: input.mode,
    user_id: input.userId,
    interaction_uid: input.interactionUid,
    code_verifier: codeVerifier,
    expires_at: now + STATE_TTL_MS,
    ...(input.continueUrl !== undefined ? { continue_url: input.continueUrl } : {}),
    ...(input.bindingHash !== undefined ? { binding_hash: input.bindingHash } : {}),
  });
  await ctx.store.save();
  return authorizationUrl(settings, { redirectUri: platformRedirectUri(ctx, input.platform), state, codeVerifier });
}

/** Redirects the browser to the platform (sign-in page button), binding the flow to this browser. */
export async function startPlatformLogin(
  ctx: IdentityContext,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { platform: string; mode: "login" | "link"; userId: number | null; interactionUid: string | null; continueUrl?: string },
): Promise<FastifyReply> {
  if (!ctx.platforms.has(input.platform)) {
    return reply.code(404).headers(PAGE_SECURITY_HEADERS).type("text/html; charset=utf-8").send(renderMessage("Unknown platform", `Sign-in with ${input.platform} is not configured on this server.`));
  }
  const binding = browserBinding(ctx, request.headers.cookie);
  const url = await platformAuthorizationUrl(ctx, { ...input, bindingHash: sha256Hex(binding.raw) });
  return reply.header("set-cookie", binding.cookie).redirect(url, 303);
}

function uniqueName(ctx: IdentityContext, wanted: string): string {
  const base = wanted.replace(/[^A-Za-z0-9_.-]/g, "").slice(0, 40) || "user";
  if (!ctx.users.findByName(base)) return base;
  for (let i = 2; i < 1000; i += 1) {
    const candidate = `${base}_${i}`;
    if (!ctx.users.findByName(candidate)) return candidate;
  }
  return `${base}_${randomSecret(4).replace(/[^A-Za-z0-9]/g, "")}`;
}

/** Stores the tokens of the code exchange with the connection (a refresh token the platform did not resend is kept). */
function keepTokens(ctx: IdentityContext, connectionId: number, profile: PlatformProfile): void {
  const tokens = profile.tokens;
  if (tokens === undefined) return;
  const earlier = ctx.connections.tokensOf(connectionId);
  ctx.connections.saveTokens(connectionId, { ...tokens, refresh_token: tokens.refresh_token ?? earlier?.refresh_token ?? null });
}

/** The user a platform account signs in as: its linked user, or a new shadow account (no password). */
export function userForPlatformLogin(ctx: IdentityContext, platform: string, profile: PlatformProfile): UserRecord {
  const linked = ctx.connections.findByPlatformId(platform, profile.platform_user_id);
  const existing = linked === null ? null : ctx.users.get(linked.user_id);
  const user =
    existing ??
    ctx.users.create({
      name: uniqueName(ctx, profile.username),
      email: profile.email !== null && ctx.users.findByEmail(profile.email) === null ? profile.email : null,
      password_hash: null,
      avatar: profile.avatar,
    });
  const connection = ctx.connections.upsert({ user_id: user.id, platform, platform_user_id: profile.platform_user_id, username: profile.username, avatar_url: profile.avatar });
  keepTokens(ctx, connection.id, profile);
  return user;
}

/**
 * `GET /oauth/{provider}?continue=<url>` (the reference's link): signed in (identity session), it
 * links the platform account to the user; signed out, it signs in with the platform (creating a
 * shadow account the first time). Then the browser goes to `continue` when that is an address of
 * this host or of a registered client, else a page says what happened.
 */
function platformLinkRoutes(app: FastifyInstance, ctx: IdentityContext): void {
  for (const platform of PLATFORMS.filter((p) => p !== "ovation")) {
    app.get<{ Querystring: { continue?: unknown } }>(`/oauth/${platform}`, HIDDEN_ROUTE, async (request, reply) => {
      const userId = ctx.sessions.userOfCookieHeader(request.headers.cookie);
      const continueUrl = allowedContinue(ctx, request.query.continue) ?? undefined;
      return startPlatformLogin(ctx, request, reply, { platform, mode: userId === null ? "login" : "link", userId, interactionUid: null, ...(continueUrl !== undefined ? { continueUrl } : {}) });
    });
  }
}

/** `/oauth/platform/:platform/callback`, `/oauth/{provider}` and the page that finishes a platform sign-in. */
export async function platformRoutes(app: FastifyInstance, ctx: IdentityContext): Promise<void> {
  platformLinkRoutes(app, ctx);
  const page = (reply: FastifyReply, status: number, title: string, message: string) =>
    reply.code(status).headers({ ...PAGE_SECURITY_HEADERS, "cache-control": "no-store" }).type("text/html; charset=utf-8").send(renderMessage(title, message));

  app.get<{ Params: { platform: string }; Querystring: Record<string, string | undefined> }>("/oauth/platform/:platform/callback", HIDDEN_ROUTE, async (request, reply) => {
    const { platform } = request.params;
    const state = typeof request.query.state === "string" ? request.query.state : "";
    const now = ctx.clock();
    const data = ctx.store.data;
    const hash = sha256Hex(state);
    const pending = data.platform_states.find((s) => s.state_hash === hash && s.platform === platform && s.expires_at > now && s.resolved_user_id === undefined);
    if (pending === undefined) return page(reply, 400, "Sign-in expired", "This platform sign-in is unknown or has expired. Start again.");
    if (pending.binding_hash !== undefined && !constantTimeEqual(sha256Hex(readCookie(request.headers.cookie, PLATFORM_BINDING_COOKIE) ?? ""), pending.binding_hash)) {
      // Not the browser that started it (a forwarded callback link): the state stays usable by its owner.
      ctx.logger.warn({ platform }, "platform callback from another browser refused");
      return page(reply, 400, "Sign-in started elsewhere", "This sign-in was started in another browser. Start it again here.");
    }
    data.platform_states = data.platform_states.filter((s) => s !== pending);
    await ctx.store.save();
    const settings = ctx.platforms.get(platform);
    const code = typeof request.query.code === "string" ? request.query.code : "";
    if (settings === undefined || code.length === 0) {
      return page(reply, 400, "Sign-in cancelled", `The platform did not sign you in${request.query.error ? ` (${request.query.error})` : ""}.`);
    }
    let profile: PlatformProfile;
    try {
      profile = await fetchPlatformProfile(settings, { code, redirectUri: platformRedirectUri(ctx, platform), codeVerifier: pending.code_verifier });
    } catch (error) {
      ctx.logger.warn({ err: error, platform }, "platform sign-in failed");
      return page(reply, 502, "Sign-in failed", error instanceof IdentityError ? error.message : "The platform could not be reached.");
    }
    if (pending.mode === "link" && pending.user_id !== null) {
      const linked = ctx.connections.findByPlatformId(platform, profile.platform_user_id);
      if (linked !== null && linked.user_id !== pending.user_id) {
        return page(reply, 409, "Already linked", `This ${settings.displayName} account is linked to another Ovation account.`);
      }
      const connection = ctx.connections.upsert({ user_id: pending.user_id, platform, platform_user_id: profile.platform_user_id, username: profile.username, avatar_url: profile.avatar });
      keepTokens(ctx, connection.id, profile);
      if (pending.continue_url !== undefined) return reply.redirect(pending.continue_url, 303);
      return page(reply, 200, "Account linked", `Your ${settings.displayName} account ${profile.username} is now linked. You can close this page.`);
    }
    const user = userForPlatformLogin(ctx, platform, profile);
    if (pending.interaction_uid === null && pending.continue_url !== undefined) {
      return reply.header("set-cookie", await ctx.sessions.create(user.id)).redirect(pending.continue_url, 303);
    }
    if (pending.interaction_uid === null) return page(reply, 400, "Sign-in expired", "Start the sign-in from an app.");
    const ticket = randomSecret(24);
    data.platform_states.push({ ...pending, state_hash: sha256Hex(ticket), resolved_user_id: user.id, expires_at: now + STATE_TTL_MS });
    await ctx.store.save();
    const cookie = await ctx.sessions.create(user.id);
    return reply
      .header("set-cookie", cookie)
      .redirect(`/oauth/interaction/${encodeURIComponent(pending.interaction_uid)}/platform-done?ticket=${encodeURIComponent(ticket)}`, 303);
  });

  app.get<{ Params: { uid: string }; Querystring: Record<string, string | undefined> }>("/oauth/interaction/:uid/platform-done", HIDDEN_ROUTE, async (request, reply) => {
    const ticket = typeof request.query.ticket === "string" ? request.query.ticket : "";
    const hash = sha256Hex(ticket);
    const data = ctx.store.data;
    const resolved = data.platform_states.find((s) => s.state_hash === hash && s.resolved_user_id !== undefined && s.expires_at > ctx.clock());
    if (resolved === undefined || resolved.interaction_uid !== request.params.uid || resolved.resolved_user_id === undefined) {
      return page(reply, 400, "Sign-in expired", "This platform sign-in is unknown or has expired. Start again.");
    }
    data.platform_states = data.platform_states.filter((s) => s !== resolved);
    await ctx.store.save();
    try {
      await ctx.provider().interactionDetails(request.raw, reply.raw);
    } catch {
      return page(reply, 400, "Sign-in expired", "This sign-in request has expired. Go back to the app and start again.");
    }
    reply.hijack();
    await ctx.provider().interactionFinished(request.raw, reply.raw, { login: { accountId: String(resolved.resolved_user_id), remember: true } }, { mergeWithLastSubmission: false });
    return reply;
  });
}
