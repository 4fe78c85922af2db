import { z } from "zod";
import { ALL_SCOPE_VALUES } from "../scopes.js";

// Request bodies of /api/... (validated by the identity module; messages complete "The <field> field ...").

/** Body (or `?email=`) of `POST /api/users/@me/update-email`. */
export const emailBodySchema = z.object({ email: z.email("must be a valid email address").max(254, "must not be greater than 254 characters") }, { error: "must be a JSON object" });
/** Body of `POST /api/users/@me/associate-password`. */
export const passwordBodySchema = z.object({ password: z.string("must be a string") }, { error: "must be a JSON object" });
/** Body of `POST /api/users/@me/password`. */
export const changePasswordBodySchema = z.object({ current_password: z.string("must be a string"), password: z.string("must be a string") }, { error: "must be a JSON object" });
/** Body of `POST /api/eat/verify-code` and `POST /api/users/@me/two-factor/confirm`. */
export const codeBodySchema = z.object({ code: z.string("must be a string").trim().min(1, "is required").max(64, "must not be greater than 64 characters") }, { error: "must be a JSON object" });
/** Query of `GET /api/users/@me/connections`. */
export const connectionsQuerySchema = z.object({ platform: z.string("must be a string").max(64, "must not be greater than 64 characters").optional() });
/** Body of `POST /api/users/@me/tokens`. */
export const tokenBodySchema = z.object(
  {
    name: z.string("must be a string").trim().min(1, "is required").max(100, "must not be greater than 100 characters"),
    scopes: z.array(z.enum(ALL_SCOPE_VALUES as [string, ...string[]], { error: () => `must be one of ${ALL_SCOPE_VALUES.join(", ")}` }), "must be an array of scopes").min(1, "must name at least one scope"),
  },
  { error: "must be a JSON object" },
);
/** Path of `DELETE /api/users/@me/tokens/{id}`. */
export const tokenParamsSchema = z.object({ id: z.coerce.number("must be a token id").int("must be a token id").positive("must be a token id") });
/** Params of `PATCH`/`DELETE /api/users/@me/connections/{id}`. */
export const connectionParamsSchema = z.object({ id: z.coerce.number("must be a connection id").int("must be a connection id").positive("must be a connection id") });
/** Body of `PATCH /api/users/@me/connections/{id}`: switches the bot on or off for that channel. */
export const connectionPatchSchema = z.strictObject({ bot_enabled: z.boolean("must be true or false") }, "the body must be an object with bot_enabled");
/** Body of `POST /api/users/@me/webauthn`: a name and the browser's registration response as JSON. */
export const securityKeyBodySchema = z.object(
  {
    name: z.string("must be a string").trim().min(1, "is required").max(100, "must not be greater than 100 characters"),
    response: z.looseObject(
      { id: z.string("must be a string"), rawId: z.string("must be a string"), type: z.literal("public-key", "must be public-key"), response: z.looseObject({ clientDataJSON: z.string(), attestationObject: z.string() }, "must be an object") },
      "must be the credential as JSON",
    ),
  },
  { error: "must be a JSON object" },
);

// Answers of /api/... (the identity module's views are typed with these).

/** `GET /api/users/@me`: the user (never the password hash). */
export const meSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  email_verified_at: z.string().nullable(),
  pending_email: z.string().nullable(),
  avatar: z.string().nullable(),
  has_password: z.boolean(),
  is_shadow: z.boolean(),
  two_factor_enabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** One linked platform account of `GET /api/users/@me/connections`. */
/**
 * How the bot serves a linked channel, in a streamer's words: `message` says what happened and
 * `action` what to do (link again, grant a missing permission). `unavailable`: the server's operator
 * has not set that platform up.
 */
export const connectionStatusSchema = z.object({
  state: z.enum(["serving", "starting", "off", "needs_reconnect", "missing_scope", "unavailable"]),
  message: z.string(),
  action: z.enum(["reconnect", "grant_scope"]).nullable(),
  missing_scopes: z.array(z.string()).optional(),
});

export const connectionViewSchema = z.object({
  id: z.number(),
  user_id: z.number(),
  platform: z.string(),
  platform_id: z.string(),
  scopes: z.array(z.string()),
  expires_at: z.string().nullable(),
  platform_name: z.string(),
  platform_login: z.string(),
  display_name: z.string(),
  platform_user_id: z.string(),
  username: z.string(),
  avatar_url: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The bot serves this channel. */
  bot_enabled: z.boolean(),
  status: connectionStatusSchema,
});

/**
 * Answer of `POST /api/users/@me/connections/{platform}/link`: the URL to open (a page of the
 * identity host that says who links what, then goes to the platform), the one-time `code` that page
 * asks for in a browser not signed in as the caller, and when both expire.
 */
export const linkUrlSchema = z.object({ url: z.string(), code: z.string(), expires_at: z.string() });

/** Body of `POST /api/users/@me/connections/{platform}/link` (optional): where the browser goes once linked. */
export const linkBodySchema = z.object({ return_to: z.string({ error: "must be a string" }).max(2048, "must be at most 2048 characters").optional() });

/** Answer of `POST /api/users/@me/update-email`. */
export const emailChangeSchema = z.object({ message: z.string(), status: z.enum(["sent", "resent"]), email: z.string() });

/** An answer that only says what happened. */
export const messageSchema = z.object({ message: z.string() });

/**
 * Answer of `POST /api/eat/request-verification`. `delivery` says where the code went: `email`
 * (a mail server is configured) or `server-log` (none is: the code is only in the server's log).
 */
export const eatRequestSchema = z.object({ message: z.string(), expires_at: z.string(), sent_to: z.string(), delivery: z.enum(["email", "server-log"]) });

/** The public view of an Elevated Access Token. */
export const eatViewSchema = z.object({ id: z.string(), user_id: z.number(), created_at: z.string(), expires_at: z.string() });

/** Answer of `POST /api/eat/verify-code`: the view plus the raw token (shown this once). */
export const eatIssuedSchema = eatViewSchema.extend({ token: z.string() });

/** Answer of `GET /api/eat/verify`. */
export const eatValidSchema = eatViewSchema.extend({ valid: z.literal(true) });

/** A personal access token as listed (never its secret). */
export const personalAccessTokenSchema = z.object({
  id: z.number(),
  user_id: z.number(),
  name: z.string(),
  scopes: z.array(z.string()),
  created_at: z.string(),
  expires_at: z.string(),
  revoked_at: z.string().nullable(),
});

/** Answer of `POST /api/users/@me/tokens`: the token record plus its secret (shown this once). */
export const createdTokenSchema = personalAccessTokenSchema.extend({ token: z.string() });

/** Answer of `GET /api/users/@me/two-factor`. */
export const twoFactorStatusSchema = z.object({ enabled: z.boolean(), recovery_codes_left: z.number() });

/** Answer of `POST /api/users/@me/two-factor`: the TOTP secret to enrol. */
export const totpEnrolmentSchema = z.object({ secret: z.string(), otpauth_url: z.string() });

/** Answer of `POST /api/users/@me/two-factor/confirm`. */
export const totpConfirmedSchema = z.object({ enabled: z.literal(true), recovery_codes: z.array(z.string()) });

/** Answer of `POST /api/users/@me/two-factor/recovery-codes`: the new codes, shown once. */
export const recoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });

/** A registered hardware key. */
export const securityKeySchema = z.object({ id: z.string(), name: z.string(), transports: z.array(z.string()), created_at: z.string() });

/** Answer of `POST /api/users/@me/webauthn/options`: WebAuthn `PublicKeyCredentialCreationOptionsJSON`, for `navigator.credentials.create` (binary fields base64url). */
export const securityKeyOptionsSchema = z.object({
  challenge: z.string(),
  rp: z.object({ name: z.string(), id: z.string().optional() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.string() })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(z.object({ id: z.string(), type: z.string(), transports: z.array(z.string()).optional() })).optional(),
  authenticatorSelection: z
    .object({ authenticatorAttachment: z.string().optional(), residentKey: z.string().optional(), requireResidentKey: z.boolean().optional(), userVerification: z.string().optional() })
    .optional(),
  hints: z.array(z.string()).optional(),
  attestation: z.string().optional(),
  attestationFormats: z.array(z.string()).optional(),
  extensions: z.object({ credProps: z.boolean().optional() }).optional(),
});
