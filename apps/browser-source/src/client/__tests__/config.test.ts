import { describe, expect, it } from "vitest";
import { ConfigFetchError, fetchConfig, parseConfig } from "../config.js";
import { retryDelayMs } from "../retry.js";

const bootstrap = { type: "alerts" as const, access_token: "tok-1", api_base: "http://127.0.0.1:1", socket_url: "http://127.0.0.1:1" };

describe("parseConfig", () => {
  it("accepts the contract's shape", () => {
    const body = { browser_source: { id: 1 }, room: "u.ovation.1", alert_set: null };
    // The overlays' lists (chat rooms, the alert log, scene parts) default to empty when absent; module_state to null.
    const lists = { chat_rooms: [], alert_log: [], scene_parts: [], module_state: null };
    expect(parseConfig(body)).toEqual({ ...body, goal_bar: null, overlay: null, ...lists });
    const goal = { ...body, goal_bar: { id: 2 }, overlay: { sounds: false } };
    expect(parseConfig(goal)).toEqual({ ...goal, ...lists });
  });

  it("names the field that is wrong", () => {
    expect(() => parseConfig({ browser_source: {}, room: "" })).toThrow("config.room must be a non-empty string");
    expect(() => parseConfig({ room: "r" })).toThrow("config.browser_source must be an object");
    expect(() => parseConfig({ room: "r", browser_source: {}, alert_set: [] })).toThrow("config.alert_set must be an object or null");
    expect(() => parseConfig({ room: "r", browser_source: {}, goal_bar: "x" })).toThrow("config.goal_bar must be an object or null");
  });
});

describe("fetchConfig", () => {
  it("asks {api_base}/browser-source/api/<token>/config and reports a refused token with its status", async () => {
    const seen: string[] = [];
    const fetcher = (async (url: string) => {
      seen.push(url);
      return new Response(JSON.stringify({ message: "gone" }), { status: 404 });
    }) as unknown as typeof fetch;
    const error = await fetchConfig(bootstrap, fetcher).catch((e: unknown) => e);
    expect(seen).toEqual(["http://127.0.0.1:1/browser-source/api/tok-1/config"]);
    expect(error).toBeInstanceOf(ConfigFetchError);
    expect((error as ConfigFetchError).status).toBe(404);
  });

  it("reports a network failure as status 0", async () => {
    const fetcher = (async () => {
      throw new TypeError("fetch failed");
    }) as unknown as typeof fetch;
    const error = await fetchConfig(bootstrap, fetcher).catch((e: unknown) => e);
    expect((error as ConfigFetchError).status).toBe(0);
  });
});

describe("retryDelayMs", () => {
  it("doubles from one second and stops at thirty", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 50].map(retryDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });
});
