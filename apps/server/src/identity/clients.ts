import { z } from "zod";
import { IdentityError } from "./errors.js";
import { randomSecret, sha256Hex } from "./secrets.js";
import type { IdentityStore, OAuthClientRecord } from "./store.js";

const redirectUri = z
  .url({ error: "must be an absolute http(s) URL", protocol: /^https?$/ })
  .refine((u) => !u.includes("#"), "must not contain a fragment");

/** Input of `ovation client create`. */
export const newClientSchema = z.object({
  name: z.string().trim().min(1, "is required").max(100, "must not be greater than 100 characters"),
  redirect_uris: z.array(redirectUri).min(1, "must name at least one redirect URI").max(20, "must not name more than 20 redirect URIs"),
  public: z.boolean().default(false),
});

/** A newly registered client: `client_secret` is shown here once (null for public clients). */
export interface CreatedClient {
  client_id: string;
  client_secret: string | null;
  name: string;
  redirect_uris: string[];
  public: boolean;
}

/**
 * Registers an OAuth client. Confidential clients get a secret (stored as SHA-256 only); public
 * clients (`public: true`, SPAs and native apps) have none and must use PKCE S256.
 */
export async function createOAuthClient(store: IdentityStore, input: z.input<typeof newClientSchema>): Promise<CreatedClient> {
  const parsed = newClientSchema.safeParse(input);
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (errors[issue.path.join(".") || "body"] ??= []).push(issue.message);
    const [field, messages] = Object.entries(errors)[0] ?? ["body", ["is invalid"]];
    throw new IdentityError("OVATION_ERR_IDENTITY_VALIDATION", { message: `The ${field} field ${messages[0]}.`, errors });
  }
  const { name, redirect_uris, public: isPublic } = parsed.data;
  const clientId = randomSecret(16).replace(/[^A-Za-z0-9]/g, "").slice(0, 20).padEnd(20, "0").toLowerCase();
  const secret = isPublic ? null : randomSecret(32, "ovcs_");
  const record: OAuthClientRecord = {
    client_id: clientId,
    name,
    secret_hash: secret === null ? null : sha256Hex(secret),
    redirect_uris,
    public: isPublic,
    created_at: new Date().toISOString(),
  };
  store.data.clients.push(record);
  await store.save();
  return { client_id: clientId, client_secret: secret, name, redirect_uris, public: isPublic };
}

/** The registered clients (without secrets). */
export function listOAuthClients(store: IdentityStore): Omit<OAuthClientRecord, "secret_hash">[] {
  return store.data.clients.map(({ secret_hash: _s, ...rest }) => ({ ...rest }));
}
