import { isIP } from "node:net";
import { generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse } from "@simplewebauthn/server";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { timestamp } from "../../store/records.js";
import type { Clock } from "../clock.js";
import { IdentityError } from "../identity-errors.js";
import type { IdentityStore, WebAuthnCredentialRecord } from "../identity-store.js";

/** How long a registration challenge stays valid. */
const CHALLENGE_TTL_MS = 5 * 60 * 1000;

/** The public view of a registered key. */
export interface WebAuthnKeyView {
  id: string;
  name: string;
  transports: string[];
  created_at: string;
}

function view(record: WebAuthnCredentialRecord): WebAuthnKeyView {
  return { id: record.id, name: record.name, transports: record.transports, created_at: timestamp(new Date(record.created_at)) };
}

/**
 * Hardware keys and passkeys (WebAuthn, `@simplewebauthn/server`): registration options with a
 * stored single-use challenge, verification of the browser's response, listing and removal. The
 * relying party is the identity host (`rpID` its host name, origin its origin).
 */
export class WebAuthnService {
  constructor(
    private readonly store: IdentityStore,
    private readonly clock: Clock,
    private readonly idBase: () => string,
  ) {}

  private rp(): { rpID: string; origin: string } {
    const url = new URL(this.idBase());
    return { rpID: url.hostname, origin: url.origin };
  }

  /** The keys of a user. */
  list(userId: number): WebAuthnKeyView[] {
    return this.store.data.webauthn_credentials.filter((c) => c.user_id === userId).map(view);
  }

  /** Options for `navigator.credentials.create`; its challenge is remembered for 5 minutes. */
  async registrationOptions(user: { id: number; uuid: string; name: string; email: string | null }): Promise<Awaited<ReturnType<typeof generateRegistrationOptions>>> {
    const options = await generateRegistrationOptions({
      rpName: "Ovation",
      rpID: this.rp().rpID,
      userName: user.email ?? user.name,
      userDisplayName: user.name,
      userID: new TextEncoder().encode(user.uuid),
      attestationType: "none",
      excludeCredentials: this.store.data.webauthn_credentials.filter((c) => c.user_id === user.id).map((c) => ({ id: c.id, transports: c.transports })),
      authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
    });
    const now = this.clock();
    const data = this.store.data;
    data.webauthn_challenges = data.webauthn_challenges.filter((c) => c.user_id !== user.id && c.expires_at > now);
    data.webauthn_challenges.push({ user_id: user.id, challenge: options.challenge, expires_at: now + CHALLENGE_TTL_MS });
    await this.store.save();
    return options;
  }

  /** Verifies the browser's registration response against the pending challenge and stores the key. */
  async register(userId: number, name: string, response: RegistrationResponseJSON): Promise<WebAuthnKeyView> {
    const now = this.clock();
    const data = this.store.data;
    const pending = data.webauthn_challenges.find((c) => c.user_id === userId && c.expires_at > now);
    data.webauthn_challenges = data.webauthn_challenges.filter((c) => c.user_id !== userId);
    await this.store.save();
    if (pending === undefined) throw new IdentityError("OVATION_ERR_IDENTITY_WEBAUTHN_FAILED", { message: "No registration is pending: ask for options first." });
    const { rpID, origin } = this.rp();
    let verification;
    try {
      verification = await verifyRegistrationResponse({ response, expectedChallenge: pending.challenge, expectedOrigin: origin, expectedRPID: rpID, requireUserVerification: false });
    } catch (cause) {
      throw new IdentityError("OVATION_ERR_IDENTITY_WEBAUTHN_FAILED", { message: `The security key response could not be verified: ${cause instanceof Error ? cause.message : String(cause)}`, cause });
    }
    if (!verification.verified) throw new IdentityError("OVATION_ERR_IDENTITY_WEBAUTHN_FAILED");
    const { credential } = verification.registrationInfo;
    if (data.webauthn_credentials.some((c) => c.id === credential.id)) {
      throw new IdentityError("OVATION_ERR_IDENTITY_WEBAUTHN_FAILED", { message: "This security key is already registered." });
    }
    const record: WebAuthnCredentialRecord = {
      id: credential.id,
      user_id: userId,
      public_key: Buffer.from(credential.publicKey).toString("base64url"),
      counter: credential.counter,
      transports: credential.transports ?? [],
      name,
      created_at: now,
    };
    data.webauthn_credentials.push(record);
    await this.store.save();
    return view(record);
  }

  /** Removes a key of the user; 404 when it is not theirs. */
  async remove(userId: number, id: string): Promise<void> {
    const data = this.store.data;
    const before = data.webauthn_credentials.length;
    data.webauthn_credentials = data.webauthn_credentials.filter((c) => !(c.id === id && c.user_id === userId));
    if (data.webauthn_credentials.length === before) throw new IdentityError("OVATION_ERR_IDENTITY_NOT_FOUND");
    await this.store.save();
  }

  /** Whether a user has at least one key (then signing in asks for it after the password). */
  hasKeys(userId: number): boolean {
    return this.store.data.webauthn_credentials.some((c) => c.user_id === userId);
  }

  /** Starts the key step of a sign-in: options for `navigator.credentials.get`, remembered per interaction. */
  async startSignIn(userId: number, interactionUid: string): Promise<Awaited<ReturnType<typeof generateAuthenticationOptions>>> {
    const options = await generateAuthenticationOptions({
      rpID: this.rp().rpID,
      allowCredentials: this.store.data.webauthn_credentials.filter((c) => c.user_id === userId).map((c) => ({ id: c.id, transports: c.transports })),
      userVerification: "preferred",
    });
    const now = this.clock();
    const data = this.store.data;
    data.pending_key_logins = data.pending_key_logins.filter((p) => p.interaction_uid !== interactionUid && p.expires_at > now);
    data.pending_key_logins.push({ interaction_uid: interactionUid, user_id: userId, challenge: options.challenge, expires_at: now + CHALLENGE_TTL_MS });
    await this.store.save();
    return options;
  }

  /**
   * Finishes the key step: the user whose key signed the pending challenge of this interaction, or
   * a 422. The challenge is spent either way; the key's signature counter is kept up to date.
   */
  async finishSignIn(interactionUid: string, response: AuthenticationResponseJSON): Promise<number> {
    const now = this.clock();
    const data = this.store.data;
    const pending = data.pending_key_logins.find((p) => p.interaction_uid === interactionUid && p.expires_at > now);
    data.pending_key_logins = data.pending_key_logins.filter((p) => p.interaction_uid !== interactionUid);
    await this.store.save();
    if (pending === undefined) throw new IdentityError("OVATION_ERR_IDENTITY_WEBAUTHN_FAILED", { message: "No security key sign-in is pending: sign in again." });
    const key = data.webauthn_credentials.find((c) => c.id === response.id && c.user_id === pending.user_id);
    if (key === undefined) throw new IdentityError("OVATION_ERR_IDENTITY_WEBAUTHN_FAILED", { message: "This security key is not registered for this account." });
    const { rpID, origin } = this.rp();
    let verification;
    try {
      verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge: pending.challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential: { id: key.id, publicKey: new Uint8Array(Buffer.from(key.public_key, "base64url")), counter: key.counter, transports: key.transports },
        requireUserVerification: false,
      });
    } catch (cause) {
      throw new IdentityError("OVATION_ERR_IDENTITY_WEBAUTHN_FAILED", { message: `The security key response could not be verified: ${cause instanceof Error ? cause.message : String(cause)}`, cause });
    }
    if (!verification.verified) throw new IdentityError("OVATION_ERR_IDENTITY_WEBAUTHN_FAILED");
    key.counter = verification.authenticationInfo.newCounter;
    await this.store.save();
    return pending.user_id;
  }
}

/**
 * Why security keys cannot work at an identity URL, or null when they can: browsers refuse an IP
 * address as the WebAuthn relying party id (`rp.id`), so the host must be a name (`localhost`, or
 * the server's DNS name).
 */
export function securityKeyUrlProblem(idUrl: string): string | null {
  const host = URL.parse(idUrl)?.hostname ?? "";
  if (isIP(host.replace(/^\[|\]$/g, "")) === 0) return null;
  return `Security keys (WebAuthn) cannot work at ${idUrl}: browsers refuse an IP address (${host}) as the relying party. Use a host name instead, for example OVATION_PUBLIC_URL=http://localhost:<port> on this machine, or the server's DNS name.`;
}
