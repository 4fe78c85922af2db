import { describe, expect, it } from "vitest";
import type {
  OvationRateLimitError} from "../errors.js";
import {
  OvationAuthError,
  OvationEatRequiredError,
  OvationHttpError,
  OvationServerError,
  OvationValidationError,
  errorFor,
  parseRetryAfter,
} from "../errors.js";
import { fillPath } from "../http/transport.js";

const request = { method: "GET", url: "http://127.0.0.1/v1/x" };

describe("errorFor", () => {
  it("keeps the Laravel body: message, code and the errors map", () => {
    const error = errorFor(422, { message: "The name field is required.", code: "OVATION_ERR_HTTP_VALIDATION", errors: { name: ["The name field is required."], "0.keyword": ["taken"] } }, request);
    expect(error).toBeInstanceOf(OvationValidationError);
    expect(error).toMatchObject({ message: "The name field is required.", status: 422, code: "OVATION_ERR_HTTP_VALIDATION", errors: { name: ["The name field is required."], "0.keyword": ["taken"] } });
  });

  it("tells EAT answers from other 401s", () => {
    expect(errorFor(401, { message: "x", code: "OVATION_ERR_AUTH_EAT_REQUIRED" }, request)).toMatchObject({ reason: "required" });
    expect(errorFor(401, { message: "x", code: "OVATION_ERR_IDENTITY_EAT_INVALID" }, request)).toMatchObject({ reason: "invalid" });
    const plain = errorFor(401, { message: "x", code: "OVATION_ERR_AUTH_UNAUTHENTICATED" }, request);
    expect(plain).toBeInstanceOf(OvationAuthError);
    expect(plain).not.toBeInstanceOf(OvationEatRequiredError);
    expect(errorFor(403, { message: "x", code: "OVATION_ERR_AUTH_FORBIDDEN" }, request)).toBeInstanceOf(OvationAuthError);
  });

  it("reads Retry-After, server errors, OAuth bodies and bodies that are not JSON", () => {
    expect((errorFor(429, { message: "Too Many Attempts." }, request, "17") as OvationRateLimitError).retryAfter).toBe(17);
    expect((errorFor(429, "slow down", request, null) as OvationRateLimitError).retryAfter).toBeNull();
    expect(errorFor(503, { message: "down", code: "OVATION_ERR_AUTH_IDENTITY_UNAVAILABLE" }, request)).toBeInstanceOf(OvationServerError);
    expect(errorFor(400, { error: "invalid_grant", error_description: "grant expired" }, request).message).toBe("grant expired");
    const html = errorFor(400, "<html>", request);
    expect(html).toBeInstanceOf(OvationHttpError);
    expect(html).toMatchObject({ code: null, errors: {}, body: "<html>", message: "GET http://127.0.0.1/v1/x answered 400" });
  });

  it("parseRetryAfter takes seconds or an HTTP date", () => {
    const now = Date.parse("2026-11-23T10:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120);
    expect(parseRetryAfter("Mon, 23 Nov 2026 10:00:30 GMT", now)).toBe(30);
    expect(parseRetryAfter("soon", now)).toBeNull();
  });
});

describe("fillPath", () => {
  it("encodes path parameters and names a missing one", () => {
    expect(fillPath("/v1/bots/{user}/commands/{id}", { user: "@me", id: 7 })).toBe("/v1/bots/%40me/commands/7");
    expect(() => fillPath("/v1/goal-bars/{id}", {})).toThrow(/id/);
  });
});
