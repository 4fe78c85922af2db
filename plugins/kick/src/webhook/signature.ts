import { createPublicKey, verify } from "node:crypto";
import type { KeyObject } from "node:crypto";

/**
 * Kick's published webhook public key (docs.kick.com, "Webhooks"; also served at
 * GET https://api.kick.com/public/v1/public-key). Webhooks are signed with the matching private key.
 */
export const KICK_PUBLIC_KEY_PEM = `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAq/+l1WnlRrGSolDMA+A8
6rAhMbQGmQ2SapVcGM3zq8ANXjnhDWocMqfWcTd95btDydITa10kDvHzw9WQOqp2
MZI7ZyrfzJuz5nhTPCiJwTwnEtWft7nV14BYRDHvlfqPUaZ+1KR4OCaO/wWIk/rQ
L/TjY0M70gse8rlBkbo2a8rKhu69RQTRsoaf4DVhDPEeSeI5jVrRDGAMGL3cGuyY
6CLKGdjVEM78g3JfYOvDU/RvfqD7L89TZ3iN94jrmWdGz34JNlEI5hqK8dd7C5EF
BEbZ5jgB8s8ReQV8H+MkuffjdAj3ajDDX3DOJMIut1lBrUVD1AaSrGCKHooWoL2e
twIDAQAB
-----END PUBLIC KEY-----
`;

/** The text Kick signs: `<Kick-Event-Message-Id>.<Kick-Event-Message-Timestamp>.<raw body>`. */
export function signedText(messageId: string, timestamp: string, body: string): Buffer {
  return Buffer.from(`${messageId}.${timestamp}.${body}`, "utf8");
}

/** Parses a PEM public key; throws naming the problem when it is not an RSA public key. */
export function parseKickPublicKey(pem: string): KeyObject {
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== "rsa") throw new Error(`the Kick webhook key must be an RSA public key, not ${key.asymmetricKeyType ?? "unknown"}`);
  return key;
}

/**
 * True when `signature` (base64, `Kick-Event-Signature`) is an RSA PKCS#1 v1.5 SHA-256 signature of
 * `messageId.timestamp.body` under `key`. A malformed signature yields false, never an exception.
 */
export function verifyKickSignature(key: KeyObject, messageId: string, timestamp: string, body: string, signature: string): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) return false;
  try {
    return verify("sha256", signedText(messageId, timestamp, body), key, Buffer.from(signature, "base64"));
  } catch {
    return false;
  }
}
