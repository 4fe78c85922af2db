import { describe, expect, it } from "vitest";
import { signOvationRequest, verifyOvationSignature } from "../signature.js";

const secret = "s3cret";
const body = '{"version":1,"event":{},"command":{},"args":["!bal"]}';
const nowMs = 1_700_000_000_000;

describe("verifyOvationSignature", () => {
  const headers = signOvationRequest({ secret, body, nowMs });

  it("accepts what signOvationRequest produced", () => {
    expect(headers["x-ovation-timestamp"]).toBe("1700000000");
    expect(verifyOvationSignature({ secret, body, timestamp: headers["x-ovation-timestamp"], signature: headers["x-ovation-signature"], now: nowMs + 10_000 })).toBe(true);
    expect(verifyOvationSignature({ secret, body: Buffer.from(body), timestamp: headers["x-ovation-timestamp"], signature: headers["x-ovation-signature"], now: nowMs })).toBe(true);
  });

  it("rejects a changed body, another secret, a stale or future timestamp", () => {
    const base = { secret, body, timestamp: headers["x-ovation-timestamp"], signature: headers["x-ovation-signature"], now: nowMs };
    expect(verifyOvationSignature({ ...base, body: body.replace("bal", "ban") })).toBe(false);
    expect(verifyOvationSignature({ ...base, secret: "other" })).toBe(false);
    expect(verifyOvationSignature({ ...base, now: nowMs + 301_000 })).toBe(false);
    expect(verifyOvationSignature({ ...base, now: nowMs - 301_000 })).toBe(false);
    expect(verifyOvationSignature({ ...base, now: nowMs + 301_000, toleranceSeconds: 600 })).toBe(true);
    expect(verifyOvationSignature({ ...base, timestamp: "1700000001" })).toBe(false);
  });

  it("rejects missing and malformed headers without throwing", () => {
    const base = { secret, body, now: nowMs };
    expect(verifyOvationSignature({ ...base, timestamp: undefined, signature: headers["x-ovation-signature"] })).toBe(false);
    expect(verifyOvationSignature({ ...base, timestamp: headers["x-ovation-timestamp"], signature: null })).toBe(false);
    expect(verifyOvationSignature({ ...base, timestamp: "soon", signature: headers["x-ovation-signature"] })).toBe(false);
    expect(verifyOvationSignature({ ...base, timestamp: headers["x-ovation-timestamp"], signature: "sha256=abc" })).toBe(false);
    expect(verifyOvationSignature({ ...base, timestamp: headers["x-ovation-timestamp"], signature: headers["x-ovation-signature"].slice(7) })).toBe(false);
    expect(verifyOvationSignature({ ...base, secret: "", timestamp: headers["x-ovation-timestamp"], signature: headers["x-ovation-signature"] })).toBe(false);
    // A repeated header arrives from node:http as an array (docs/outbound.md casts the header value).
    const repeated = [headers["x-ovation-timestamp"], headers["x-ovation-timestamp"]] as unknown as string;
    expect(verifyOvationSignature({ ...base, timestamp: repeated, signature: headers["x-ovation-signature"] })).toBe(false);
  });
});
