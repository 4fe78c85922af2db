import type { PersonalAccessTokensRepository } from "../store/personal-access-tokens.js";
import { PAT_PREFIX } from "../store/personal-access-tokens.js";
import type { UsersRepository } from "../store/users.js";
import type { Principal, TokenVerifier } from "./principal.js";
import { matchesHash } from "../crypto/secrets.js";

/** The `kind` of principals (and socket credentials) of personal access tokens. */
export const PAT_KIND = "personal_access_token";

const PAT_SHAPE = /^ovpat_(\d{1,12})_[A-Za-z0-9_-]{43}$/;

/** Verifies personal access tokens `ovpat_<id>_<secret>`: known, hash equal, not revoked or expired, user exists. */
export class PersonalAccessTokenVerifier implements TokenVerifier {
  readonly name = PAT_KIND;

  constructor(
    private readonly tokens: PersonalAccessTokensRepository,
    private readonly users: UsersRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  verify(rawToken: string): Principal | null {
    if (!rawToken.startsWith(PAT_PREFIX)) return null;
    const match = PAT_SHAPE.exec(rawToken);
    if (!match) return null;
    const record = this.tokens.get(Number(match[1]));
    if (!record || !matchesHash(rawToken, record.token_hash)) return null;
    if (record.revoked_at !== null || Date.parse(record.expires_at) <= this.now().getTime()) return null;
    if (!this.users.get(record.user_id)) return null;
    return { userId: record.user_id, scopes: record.scopes, tokenId: String(record.id), kind: this.name };
  }
}
