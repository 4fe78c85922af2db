import { describe, expect, it } from "vitest";
import { chatEventSchema, normalizePlatform, platformSchema } from "@ovation/core";

describe("platforms", () => {
  it("accepts own3d as an alias of the service's own platform", () => {
    expect(normalizePlatform("own3d")).toBe("ovation");
    expect(platformSchema.parse("OWN3D")).toBe("ovation");
    expect(platformSchema.parse("twitch")).toBe("twitch");
  });

  it("accepts a plugin's well-formed platform id (open registry), lower-cased", () => {
    expect(platformSchema.parse("fakechat")).toBe("fakechat");
    expect(platformSchema.parse("FakeChat")).toBe("fakechat");
  });

  it("rejects a malformed platform id with a message that lists the built-in ones", () => {
    for (const bad of ["", "my space", "-x", "a".repeat(33), "<b>"]) {
      const result = platformSchema.safeParse(bad);
      expect(result.success, bad).toBe(false);
      expect(result.error?.issues[0]?.message).toContain("twitch, youtube, kick, tiktok, ovation");
    }
  });
});

describe("chat event schema", () => {
  it("names the path of a missing field", () => {
    const result = chatEventSchema.safeParse({ id: "1", type: "message" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join("."))).toContain("user");
  });
});
