import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyRequest,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { botUserParam } from "@ovation/core/api";
import { callerOf, resolveUserParam } from "./authenticate.js";
import type { ZodApp } from "./types.js";

/**
 * The channel form of a path that acts on the caller: `/v1/goal-bars/:id` is also served at
 * `/v1/bots/:user/goal-bars/:id`, where `{user}` is `@me`, the caller's id, or the id of a channel
 * the caller manages (the role check and the audit log of `resolveUserParam`). The caller's path
 * stays as it is (several are the reference service's own).
 */
export function channelPath(path: string): string {
  if (!path.startsWith("/v1/")) throw new TypeError(`not a /v1 path: ${path}`);
  return `/v1/bots/:user/${path.slice("/v1/".length)}`;
}

/** One of the two addresses of a route: the caller's own, or the channel form with `{user}`. */
export interface RouteForm<P extends z.ZodObject> {
  url: string;
  params: P;
  /** True for `/v1/bots/:user/...`. */
  channel: boolean;
}

/**
 * Both addresses of a route acting on the caller, for registering one handler twice: the caller's
 * path with `params`, and its channel form with `params` plus `user`. Read the target with
 * {@link channelUserOf}.
 */
export function routeForms<P extends z.ZodObject = z.ZodObject<Record<never, never>>>(path: string, params?: P): Array<RouteForm<P>> {
  const own = params ?? (z.object({}) as unknown as P);
  // The channel form's params only add `user`, which the shared handler reads through channelUserOf.
  const channel = own.extend({ user: botUserParam }) as unknown as P;
  return [
    { url: path, params: own, channel: false },
    { url: channelPath(path), params: channel, channel: true },
  ];
}

/** Route options of a zod-typed route (everything but its url, method and handler). */
export type ChannelRouteOptions<S extends FastifySchema> = RouteShorthandOptions<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  S,
  ZodTypeProvider,
  FastifyBaseLogger
>;

/** The handler of a zod-typed route whose schema is `S`. */
export type ChannelRouteHandler<S extends FastifySchema> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  S,
  ZodTypeProvider,
  FastifyBaseLogger
>;

/**
 * Registers one handler at both addresses of a route acting on the caller ({@link routeForms}):
 * `options(form)` gives each form's route options (its schema takes `params: form.params`; a
 * response may differ on the channel form, `form.channel`), and `handler` serves both, reading the
 * target with {@link channelUserOf}.
 */
export function channelRoute<const S extends FastifySchema, P extends z.ZodObject = z.ZodObject<Record<never, never>>>(
  app: ZodApp,
  route: { method: "GET" | "POST" | "PUT" | "DELETE"; path: string; params?: P },
  options: (form: RouteForm<P>) => ChannelRouteOptions<S>,
  handler: ChannelRouteHandler<S>,
): void {
  for (const form of routeForms(route.path, route.params)) app.route<RouteGenericInterface, ContextConfigDefault, S>({ ...options(form), method: route.method, url: form.url, handler });
}

/**
 * The user a route registered with {@link channelRoute} acts on: the caller on its own path; on the
 * channel form, `{user}` resolved by `resolveUserParam` (403 for a stranger, a role that does not
 * cover the route's scopes, or a manager on an `ownerOnly` route).
 */
export function channelUserOf(request: FastifyRequest, options: { ownerOnly?: boolean } = {}): number {
  const params = request.params as Readonly<Record<string, unknown>> | undefined;
  const user = params?.["user"];
  return typeof user === "string" ? resolveUserParam(request, user, options) : callerOf(request).userId;
}

/** True when the call acts on another's channel as a manager (set by `channelUserOf`): secrets are withheld. */
export function actsAsManager(request: FastifyRequest): boolean {
  return request.managing !== null && request.managing.allowed;
}
