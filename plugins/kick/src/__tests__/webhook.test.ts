import { generateKeyPairSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import { KICK_PUBLIC_KEY_PEM, parseKickPublicKey, signedText } from "../webhook/signature.js";
import { KickWebhookVerifier } from "../webhook/verifier.js";
import type { KickWebhookRequest } from "../webhook/verifier.js";
import { webhookEvent } from "../testing/index.js";

const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
const publicKey = pair.publicKey.export({ type: "spki", format: "pem" }).toString();
const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
const now = Date.parse("2026-11-23T15:00:00Z");

function request(options: { id?: string; at?: number; body?: string; key?: typeof pair.privateKey; drop?: string } = {}): KickWebhookRequest {
  const body = options.body ?? JSON.stringify(webhookEvent("follow").body);
  const id = options.id ?? "01KWEBHOOK0001";
  const timestamp = new Date(options.at ?? now).toISOString();
  const headers: Record<string, string> = {
    "kick-event-message-id": id,
    "kick-event-subscription-id": "01KSUB",
    "kick-event-signature": sign("sha256", signedText(id, timestamp, body), options.key ?? pair.privateKey).toString("base64"),
    "kick-event-message-timestamp": timestamp,
    "kick-event-type": "channel.followed",
    "kick-event-version": "1",
  };
  if (options.drop) delete headers[options.drop];
  return { headers, body };
}

describe("Kick webhook verification", () => {
  const verifier = (): KickWebhookVerifier => new KickWebhookVerifier({ publicKey, toleranceSeconds: 300, now: () => now });

  it("accepts a request signed with the trusted key, then refuses the same message id as a replay", () => {
    const v = verifier();
    const ok = v.verify(request());
    expect(ok).toMatchObject({ accepted: true, status: 200, messageId: "01KWEBHOOK0001", type: "channel.followed", version: "1", subscriptionId: "01KSUB" });
    expect(v.verify(request())).toMatchObject({ accepted: false, status: 200, reason: "replay" });
  });

  it("refuses a forged signature, a changed body, a stale or future timestamp and missing headers", () => {
    const v = verifier();
    expect(v.verify(request({ key: other }))).toMatchObject({ accepted: false, status: 403, reason: "bad_signature" });
    const tampered = request({ id: "t" });
    expect(v.verify({ ...tampered, body: tampered.body.replace("NewFan", "Evil") })).toMatchObject({ reason: "bad_signature" });
    expect(v.verify(request({ id: "old", at: now - 301_000 }))).toMatchObject({ status: 403, reason: "stale_timestamp" });
    expect(v.verify(request({ id: "future", at: now + 301_000 }))).toMatchObject({ status: 403, reason: "stale_timestamp" });
    expect(v.verify(request({ drop: "kick-event-signature" }))).toMatchObject({ status: 400, reason: "missing_header", detail: expect.stringContaining("kick-event-signature") });
    expect(v.verify({ ...request(), headers: { ...request().headers, "kick-event-signature": "not base64 !" } })).toMatchObject({ reason: "bad_signature" });
    expect(v.verify({ ...request(), headers: { ...request().headers, "kick-event-message-timestamp": "yesterday" } })).toMatchObject({ status: 400, reason: "stale_timestamp" });
  });

  it("does not remember ids of refused requests (a forged request cannot block the real one)", () => {
    const v = verifier();
    expect(v.verify(request({ id: "same", key: other })).accepted).toBe(false);
    expect(v.verify(request({ id: "same" })).accepted).toBe(true);
  });

  it("refuses a signed body that is not JSON", () => {
    expect(verifier().verify(request({ body: "{nope" }))).toMatchObject({ status: 400, reason: "malformed_body" });
  });

  it("parses Kick's published public key and refuses non-RSA keys", () => {
    expect(parseKickPublicKey(KICK_PUBLIC_KEY_PEM).asymmetricKeyDetails?.modulusLength).toBe(2048);
    const ec = generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey.export({ type: "spki", format: "pem" }).toString();
    expect(() => parseKickPublicKey(ec)).toThrow(/RSA public key/);
  });
});
