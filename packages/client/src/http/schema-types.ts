import type { z } from "zod";
import type { CallOptions } from "./transport.js";

/** What a caller sends for a schema (defaults optional, before transforms). */
export type In<S extends z.ZodType> = z.input<S>;

/** What the server answers for a schema. */
export type Out<S extends z.ZodType> = z.output<S>;

/** Options of a call on a bot's resources: `user` is `@me` (default) or your numeric user id. */
export interface BotCallOptions extends CallOptions {
  user?: string | number;
}

/** The `{user}` path parameter of a bot call. */
export function botUser(options: BotCallOptions | undefined): { user: string } {
  return { user: String(options?.user ?? "@me") };
}

/** The call options without `user`. */
export function callOnly(options: BotCallOptions | undefined): CallOptions {
  if (options === undefined) return {};
  const { user: _user, ...rest } = options;
  return rest;
}
