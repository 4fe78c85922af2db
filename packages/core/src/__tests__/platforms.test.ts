import { describe, expect, it } from "vitest";
import { chatEventSchema, normalizePlatform, platformSchema } from "@ovation/core";

describe("platforms", () => {
  it("accepts own3d as an alias of the service's own platform", () => {
    expect(normalizePlatform("own3d")).toBe("ovation");
    expect(platformSchema.parse("OWN3D")).toBe("ovation");
    expect(platformSchema.parse("twitch")).toBe("twitch");
  });

  it("rejects an unknown platform with a message that lists the known ones", () => {
    const result = platformSchema.safeParse("myspace");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain("twitch, youtube, kick, tiktok, ovation");
  });
});

describe("chat event schema", () => {
  it("names the path of a missing field", () => {
    const result = chatEventSchema.safeParse({ id: "1", type: "message" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join("."))).toContain("user");
  });
});
