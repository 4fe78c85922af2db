import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { PLATFORMS, definedKeys } from "@ovation/core";
import type { UserRecord } from "../../store/records.js";
import type { IdentityContext } from "../context.js";
import { IdentityError } from "../identity-errors.js";
import { PAGE_SECURITY_HEADERS } from "../pages/layout.js";
import { renderMessage } from "../pages/message.js";
import { renderLinkConfirm, renderNoLinkedAccount } from "../pages/platform-link.js";
import { allowedContinue } from "./page-routes.js";
import { HIDDEN_ROUTE } from "./route-docs.js";
import { constantTimeEqual, randomDigits, randomSecret, sha256Hex } from "../../crypto/secrets.js";
import { readCookie } from "../session.js";
import { authorizationUrl, fetchPlatformProfile } from "../platforms/platform-oauth.js";
import type { PlatformProfile } from "../platforms/settings.js";

/** How long a platform login may take between leaving and coming back. */
const STATE_TTL_MS = 10 * 60 * 1000;
/** How long the URL of an API-started link stays usable. */
export const LINK_REQUEST_TTL_MS = 10 * 60 * 1000;
/** Wrong codes on a link's page before the link is burned. */
const LINK_CODE_TRIES = 5;

/**
 * The cookie that ties a platform sign-in or link to the browser that started it: the callback is
 * refused in any other browser, so nobody can sign a victim in to the attacker's account, or link a
 * victim's platform account to the attacker's, by sending them a link (login and link CSRF).
 */
export const PLATFORM_BINDING_COOKIE = "ovation_platform_binding";

/** A pending OAuth `state` (key `state.<sha256>`): always bound to the browser that left for the platform. */
const pendingStateSchema = z.object({
  platform: z.string(),
  mode: z.enum(["login", "link"]),
  user_id: z.number().nullable(),
  interaction_uid: z.string().nullable(),
  code_verifier: z.string(),
  binding_hash: z.string(),
  continue_url: z.string().optional(),
});

/** A link started through the API (key `link.<sha256 of its id>`), waiting for a browser to confirm it. */
const linkRequestSchema = z.object({
  platform: z.string(),
  user_id: z.number(),
  code_hash: z.string(),
  wrong: z.number(),
  expires_at: z.number(),
  return_to: z.string().optional(),
});

/** A platform sign-in that found its user, redeemable once by the interaction page (key `done.<sha256>`). */
const signedInSchema = z.object({ user_id: z.number(), interaction_uid: z.string() });

/** A platform account no Ovation account has linked, waiting for the person's choice (key `unlinked.<sha256>`). */
const unlinkedSchema = z.object({
  platform: z.string(),
  profile: z.object({
    platform_user_id: z.string(),
    username: z.string(),
    email: z.string().nullable(),
    avatar: z.string().nullable(),
    tokens: z.object({ access_token: z.string(), refresh_token: z.string().nullable(), expires_at: z.number(), scopes: z.array(z.string()) }).optional(),
  }),
  interaction_uid: z.string().nullable(),
  continue_url: z.string().optional(),
  binding_hash: z.string(),
});

const entryKey = (kind: "state" | "link" | "done" | "unlinked", secret: string) => `${kind}.${sha256Hex(secret)}`;

function parsed<T>(schema: z.ZodType<T>, value: unknown): T | null {
  const result = schema.safeParse(value);
  return result.success ? result.data : null;
}

/** The binding secret of this browser (reused when it already has one, so parallel sign-ins work) and its Set-Cookie value. */
function browserBinding(ctx: IdentityContext, cookieHeader: string | undefined): { raw: string; hash: string; cookie: string } {
  const existing = readCookie(cookieHeader, PLATFORM_BINDING_COOKIE);
  const raw = existing !== undefined && /^[A-Za-z0-9_-]{32,64}$/.test(existing) ? existing : randomSecret(24);
  const secure = ctx.idBase().startsWith("https:") ? "; Secure" : "";
  return { raw, hash: sha256Hex(raw), cookie: `${PLATFORM_BINDING_COOKIE}=${raw}; Path=/oauth/; HttpOnly; SameSite=Lax; Max-Age=${STATE_TTL_MS / 1000}${secure}` };
}

/** Whether this request comes from the browser a pending entry is bound to. */
function sameBrowser(request: FastifyRequest, bindingHash: string): boolean {
  return constantTimeEqual(sha256Hex(readCookie(request.headers.cookie, PLATFORM_BINDING_COOKIE) ?? ""), bindingHash);
}

/** Where every platform sends the browser back: register this redirect URI with the platform's app. */
export function platformRedirectUri(ctx: IdentityContext, platform: string): string {
  return `${ctx.idBase()}/oauth/platform/${encodeURIComponent(platform)}/callback`;
}

/** Stores a pending login or link bound to a browser and returns the platform's authorization URL. */
async function platformAuthorizationUrl(
  ctx: IdentityContext,
  input: { platform: string; mode: "login" | "link"; userId: number | null; interactionUid: string | null; continueUrl?: string; bindingHash: string },
): Promise<string> {
  const settings = ctx.platforms.get(input.platform);
  if (settings === undefined) throw new IdentityError("OVATION_ERR_IDENTITY_PLATFORM_UNKNOWN", { extra: { platform: input.platform } });
  const state = randomSecret(24);
  const codeVerifier = randomSecret(32);
  const entry: z.input<typeof pendingStateSchema> = {
    platform: input.platform,
    mode: input.mode,
    user_id: input.userId,
    interaction_uid: input.interactionUid,
    code_verifier: codeVerifier,
    binding_hash: input.bindingHash,
    ...definedKeys({ continue_url: input.continueUrl }),
  };
  await ctx.pending.put(entryKey("state", state), entry, STATE_TTL_MS);
  return authorizationUrl(settings, { redirectUri: platformRedirectUri(ctx, input.platform), state, codeVerifier });
}

/** Redirects the browser to the platform (sign-in page button, `/oauth/{provider}`), binding the flow to this browser. */
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
  const url = await platformAuthorizationUrl(ctx, { ...input, bindingHash: binding.hash });
  return reply.header("set-cookie", binding.cookie).redirect(url, 303);
}

/**
 * Starts a link through the API (`POST /api/users/@me/connections/:platform/link`): the URL opens
 * the link's page on this host, which says who links what to which account and continues only in a
 * browser signed in as that account or with the one-time `code` (shown to the caller only).
 */
export async function startLinkRequest(
  ctx: IdentityContext,
  input: { platform: string; userId: number; returnTo?: string },
): Promise<{ url: string; code: string; expires_at: string }> {
  if (!ctx.platforms.has(input.platform)) throw new IdentityError("OVATION_ERR_IDENTITY_PLATFORM_UNKNOWN", { extra: { platform: input.platform } });
  const id = randomSecret(24);
  const code = randomDigits(8);
  const expiresAt = ctx.clock() + LINK_REQUEST_TTL_MS;
  const entry: z.input<typeof linkRequestSchema> = {
    platform: input.platform,
    user_id: input.userId,
    code_hash: sha256Hex(code),
    wrong: 0,
    expires_at: expiresAt,
    ...definedKeys({ return_to: input.returnTo }),
  };
  await ctx.pending.put(entryKey("link", id), entry, LINK_REQUEST_TTL_MS);
  return { url: `${ctx.idBase()}/oauth/link/${id}`, code, expires_at: new Date(expiresAt).toISOString() };
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

/** Links (or re-links with new tokens) a platform account to a user: the change feed then has the plugin serve it. */
function linkTo(ctx: IdentityContext, userId: number, platform: string, profile: PlatformProfile): void {
  const connection = ctx.connections.upsert({ user_id: userId, platform, platform_user_id: profile.platform_user_id, username: profile.username, avatar_url: profile.avatar });
  keepTokens(ctx, connection.id, profile);
}

/** The user that has this platform account linked (its tokens refreshed), or null: nobody has. */
export function linkedUserForLogin(ctx: IdentityContext, platform: string, profile: PlatformProfile): UserRecord | null {
  const linked = ctx.connections.findByPlatformId(platform, profile.platform_user_id);
  const user = linked === null ? null : ctx.users.get(linked.user_id);
  if (user === null) return null;
  linkTo(ctx, user.id, platform, profile);
  return user;
}

/** A new account (no password) for a platform account, created only when the person chose it. */
function createAccountFor(ctx: IdentityContext, platform: string, profile: PlatformProfile): UserRecord {
  const user = ctx.users.create({
    name: uniqueName(ctx, profile.username),
    email: profile.email !== null && ctx.users.findByEmail(profile.email) === null ? profile.email : null,
    password_hash: null,
    avatar: profile.avatar,
  });
  linkTo(ctx, user.id, platform, profile);
  return user;
}

/**
 * `GET /oauth/{provider}?continue=<url>` (the reference's link): signed in (identity session), it
 * links the platform account to the user; signed out, it signs in with the platform (the account
 * that has it linked; when none has, the person chooses). Then the browser goes to `continue` when
 * that is an address of this host or of a registered client, else a page says what happened.
 */
function platformLinkRoutes(app: FastifyInstance, ctx: IdentityContext): void {
  for (const platform of PLATFORMS.filter((p) => p !== "ovation")) {
    app.get<{ Querystring: { continue?: unknown } }>(`/oauth/${platform}`, HIDDEN_ROUTE, async (request, reply) => {
      const userId = ctx.sessions.userOfCookieHeader(request.headers.cookie);
      const continueUrl = allowedContinue(ctx, request.query.continue) ?? undefined;
      return startPlatformLogin(ctx, request, reply, { platform, mode: userId === null ? "login" : "link", userId, interactionUid: null, ...definedKeys({ continueUrl }) });
    });
  }
}

type Page = (reply: FastifyReply, status: number, title: string, message: string, back?: { href: string; label: string }) => FastifyReply;

/** Finishes a platform sign-in as `user`: a session, then back to the app (interaction), `continue`, or a page. */
async function signedIn(ctx: IdentityContext, reply: FastifyReply, page: Page, user: UserRecord, flow: { interaction_uid: string | null; continue_url?: string | undefined }): Promise<FastifyReply> {
  const cookie = await ctx.sessions.create(user.id);
  if (flow.interaction_uid === null && flow.continue_url !== undefined) return reply.header("set-cookie", cookie).redirect(flow.continue_url, 303);
  if (flow.interaction_uid === null) return page(reply.header("set-cookie", cookie), 200, "Signed in", `You are signed in as ${user.name}. You can close this page.`);
  const ticket = randomSecret(24);
  await ctx.pending.put(entryKey("done", ticket), { user_id: user.id, interaction_uid: flow.interaction_uid } satisfies z.input<typeof signedInSchema>, STATE_TTL_MS);
  return reply.header("set-cookie", cookie).redirect(`/oauth/interaction/${encodeURIComponent(flow.interaction_uid)}/platform-done?ticket=${encodeURIComponent(ticket)}`, 303);
}

/** `/oauth/platform/:platform/callback`, `/oauth/{provider}`, the link page of API-started links and the pages that finish a platform sign-in. */
export async function platformRoutes(app: FastifyInstance, ctx: IdentityContext): Promise<void> {
  platformLinkRoutes(app, ctx);
  const html = (reply: FastifyReply, status: number, body: string) => reply.code(status).headers({ ...PAGE_SECURITY_HEADERS, "cache-control": "no-store" }).type("text/html; charset=utf-8").send(body);
  const page: Page = (reply, status, title, message, back) => html(reply, status, renderMessage(title, message, back));
  const backTo = (url: string | undefined) => (url === undefined ? undefined : { href: url, label: "Back" });

  app.get<{ Params: { platform: string }; Querystring: Record<string, string | undefined> }>("/oauth/platform/:platform/callback", HIDDEN_ROUTE, async (request, reply) => {
    const { platform } = request.params;
    const state = typeof request.query.state === "string" && request.query.state.length < 200 ? request.query.state : "";
    const key = entryKey("state", state);
    const pending = parsed(pendingStateSchema, await ctx.pending.get(key));
    if (pending === null || pending.platform !== platform) return page(reply, 400, "Sign-in expired", "This platform sign-in is unknown or has expired. Start again.");
    if (!sameBrowser(request, pending.binding_hash)) {
      // Not the browser that started it (a forwarded callback link): the state stays usable by its owner.
      ctx.logger.warn({ platform }, "platform callback from another browser refused");
      return page(reply, 400, "Sign-in started elsewhere", "This sign-in was started in another browser. Start it again here.");
    }
    if ((await ctx.pending.take(key)) === null) return page(reply, 400, "Sign-in expired", "This platform sign-in is unknown or has expired. Start again.");
    const settings = ctx.platforms.get(platform);
    const code = typeof request.query.code === "string" ? request.query.code : "";
    const back = backTo(pending.continue_url);
    if (settings === undefined || code.length === 0) {
      return page(reply, 400, "Sign-in cancelled", `The platform did not sign you in${request.query.error ? ` (${request.query.error})` : ""}.`, back);
    }
    let profile: PlatformProfile;
    try {
      profile = await fetchPlatformProfile(settings, { code, redirectUri: platformRedirectUri(ctx, platform), codeVerifier: pending.code_verifier });
    } catch (error) {
      ctx.logger.warn({ err: error, platform }, "platform sign-in failed");
      return page(reply, 502, "Sign-in failed", error instanceof IdentityError ? error.message : "The platform could not be reached.", back);
    }
    if (pending.mode === "link" && pending.user_id !== null) {
      if (ctx.users.get(pending.user_id) === null) return page(reply, 400, "Link expired", "The Ovation account of this link no longer exists.");
      const linked = ctx.connections.findByPlatformId(platform, profile.platform_user_id);
      if (linked !== null && linked.user_id !== pending.user_id) {
        return page(reply, 409, "Already linked", `This ${settings.displayName} account is linked to another Ovation account.`, back);
      }
      linkTo(ctx, pending.user_id, platform, profile);
      if (pending.continue_url !== undefined) return reply.redirect(pending.continue_url, 303);
      return page(reply, 200, "Account linked", `Your ${settings.displayName} account ${profile.username} is now linked. You can close this page.`);
    }
    const user = linkedUserForLogin(ctx, platform, profile);
    if (user !== null) return signedIn(ctx, reply, page, user, pending);
    // Nobody has this platform account linked: say so and let the person choose (never a silent second account).
    const ticket = randomSecret(24);
    const waiting: z.input<typeof unlinkedSchema> = {
      platform,
      profile,
      interaction_uid: pending.interaction_uid,
      binding_hash: pending.binding_hash,
      ...definedKeys({ continue_url: pending.continue_url }),
    };
    await ctx.pending.put(entryKey("unlinked", ticket), waiting, STATE_TTL_MS);
    const signInUrl = pending.interaction_uid !== null ? `/oauth/interaction/${encodeURIComponent(pending.interaction_uid)}` : null;
    return html(reply, 200, renderNoLinkedAccount({ platformName: settings.displayName, username: profile.username, ticket, signInUrl }));
  });

  app.get<{ Params: { uid: string }; Querystring: Record<string, string | undefined> }>("/oauth/interaction/:uid/platform-done", HIDDEN_ROUTE, async (request, reply) => {
    const ticket = typeof request.query.ticket === "string" && request.query.ticket.length < 200 ? request.query.ticket : "";
    const key = entryKey("done", ticket);
    const resolved = parsed(signedInSchema, await ctx.pending.get(key));
    if (resolved === null || resolved.interaction_uid !== request.params.uid || (await ctx.pending.take(key)) === null) {
      return page(reply, 400, "Sign-in expired", "This platform sign-in is unknown or has expired. Start again.");
    }
    try {
      await ctx.provider().interactionDetails(request.raw, reply.raw);
    } catch {
      return page(reply, 400, "Sign-in expired", "This sign-in request has expired. Go back to the app and start again.");
    }
    reply.hijack();
    await ctx.provider().interactionFinished(request.raw, reply.raw, { login: { accountId: String(resolved.user_id), remember: true } }, { mergeWithLastSubmission: false });
    return reply;
  });

  await app.register(async (forms) => {
    forms.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: 4096 }, (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))));
    const field = (body: unknown, name: string): string => {
      const value = (body as Record<string, unknown> | undefined)?.[name];
      return typeof value === "string" && value.length < 200 ? value : "";
    };
    const linkId = (value: string) => (/^[A-Za-z0-9_-]{20,64}$/.test(value) ? value : null);
    const expiredLink = (reply: FastifyReply) => page(reply, 400, "Link expired", "This link is unknown, expired or already used. Start linking again from your app or the dashboard.");

    /** The link page: what is linked to which account; nothing happens on opening it. */
    const linkView = async (request: FastifyRequest<{ Params: { id: string } }>) => {
      const id = linkId(request.params.id);
      const link = id === null ? null : parsed(linkRequestSchema, await ctx.pending.get(entryKey("link", id)));
      const owner = link === null ? null : ctx.users.get(link.user_id);
      const settings = link === null ? undefined : ctx.platforms.get(link.platform);
      if (id === null || link === null || owner === null || settings === undefined) return null;
      const sessionUser = ctx.sessions.userOfCookieHeader(request.headers.cookie);
      const other = sessionUser !== null && sessionUser !== owner.id ? ctx.users.get(sessionUser) : null;
      return { id, link, owner, settings, signedInAsOwner: sessionUser === owner.id, otherUser: other?.name ?? null };
    };

    forms.get<{ Params: { id: string } }>("/oauth/link/:id", HIDDEN_ROUTE, async (request, reply) => {
      const view = await linkView(request);
      if (view === null) return expiredLink(reply);
      return html(reply, 200, renderLinkConfirm({ id: view.id, platformName: view.settings.displayName, accountName: view.owner.name, signedInAsOwner: view.signedInAsOwner, otherUser: view.otherUser }));
    });

    forms.post<{ Params: { id: string } }>("/oauth/link/:id", HIDDEN_ROUTE, async (request, reply) => {
      const view = await linkView(request);
      if (view === null) return expiredLink(reply);
      const key = entryKey("link", view.id);
      if (!view.signedInAsOwner) {
        const code = field(request.body, "code").replace(/\s+/g, "");
        if (!constantTimeEqual(sha256Hex(code), view.link.code_hash)) {
          const wrong = view.link.wrong + 1;
          if (wrong >= LINK_CODE_TRIES) {
            await ctx.pending.take(key);
            return page(reply, 400, "Link cancelled", "Too many wrong codes: this link no longer works. Start linking again from your app.");
          }
          await ctx.pending.put(key, { ...view.link, wrong }, Math.max(1, view.link.expires_at - ctx.clock()));
          return html(
            reply,
            code === "" ? 422 : 401,
            renderLinkConfirm({ id: view.id, platformName: view.settings.displayName, accountName: view.owner.name, signedInAsOwner: false, otherUser: view.otherUser, error: code === "" ? "Enter the code the app showed when it started the link." : "That code is not right. Check it and try again." }),
          );
        }
      }
      if ((await ctx.pending.take(key)) === null) return expiredLink(reply);
      const binding = browserBinding(ctx, request.headers.cookie);
      const url = await platformAuthorizationUrl(ctx, {
        platform: view.link.platform,
        mode: "link",
        userId: view.owner.id,
        interactionUid: null,
        bindingHash: binding.hash,
        ...definedKeys({ continueUrl: view.link.return_to }),
      });
      return reply.header("set-cookie", binding.cookie).header("cache-control", "no-store").redirect(url, 303);
    });

    forms.post("/oauth/platform/new-account", HIDDEN_ROUTE, async (request, reply) => {
      const key = entryKey("unlinked", field(request.body, "ticket"));
      const waiting = parsed(unlinkedSchema, await ctx.pending.get(key));
      if (waiting === null) return page(reply, 400, "Sign-in expired", "This platform sign-in is unknown or has expired. Start again.");
      if (!sameBrowser(request, waiting.binding_hash)) return page(reply, 400, "Sign-in started elsewhere", "This sign-in was started in another browser. Start it again here.");
      if ((await ctx.pending.take(key)) === null) return page(reply, 400, "Sign-in expired", "This platform sign-in is unknown or has expired. Start again.");
      const profile: PlatformProfile = waiting.profile;
      // Linked meanwhile (another tab): sign in to that account rather than creating a second one.
      const user = linkedUserForLogin(ctx, waiting.platform, profile) ?? createAccountFor(ctx, waiting.platform, profile);
      return signedIn(ctx, reply, page, user, waiting);
    });
  });
}
