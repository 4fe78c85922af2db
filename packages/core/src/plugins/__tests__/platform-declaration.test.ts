import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { PLUGIN_API_VERSION, apiVersionProblem, definePlugin } from "@ovation/core/contracts";
import type { PlatformPlugin } from "@ovation/core/contracts";
import { PluginHost, checkPlugin } from "@ovation/core/plugins";
import { z } from "zod";
import { memoryPluginServices } from "@ovation/core/plugin-kit/testing";

const { credentials, routes, state } = memoryPluginServices("fakechat");
const noServices = { credentials, routes, state };

function plugin(platform: string, declaration?: unknown): PlatformPlugin {
  return {
    metadata: { name: `p-${platform}`, platform, version: "1.0.0", core: "^0.1.0" },
    capabilities: { send: [], moderation: { deleteMessage: false, timeout: false } },
    channels: () => [],
    connect: async () => undefined,
    disconnect: async () => undefined,
    send: async () => undefined,
    ...(declaration === undefined ? {} : { platform: declaration as PlatformPlugin["platform"] }),
  };
}

describe("plugin platform declarations", () => {
  it("refuses a declaration naming a type outside the catalog or a bad parameter, naming each problem", () => {
    expect(() =>
      checkPlugin(
        plugin("fakechat", {
          name: "FakeChat",
          alerts: [
            { type: "folow", parameters: [], default: {} },
            { type: "raid", parameters: [{ name: "1x", type: "string", default: "", example: "", description: "", conditional: false }], default: {} },
          ],
        }),
        "0.1.0",
      ),
    ).toThrow(/platform\.alerts\.1\.parameters\.0\.name: must be 1-64 characters/);
    expect(() => checkPlugin(plugin("fakechat", { alerts: [{ type: "folow", parameters: [], default: {} }] }), "0.1.0")).toThrow(
      /platform\.alerts: folow is not an alert type of the catalog/,
    );
  });

  it("puts registered plugin platforms in the host's registry after the built-in ones", () => {
    const host = new PluginHost({ logger: pino({ level: "silent" }) });
    host.register(plugin("fakechat"));
    host.register(plugin("kick"));
    host.register(plugin("other", { name: "Other Chat", alerts: [{ type: "follow", parameters: [], default: { title: "hi" } }] }));
    const registry = host.platforms();
    expect(registry.map((p) => p.id)).toEqual(["twitch", "youtube", "kick", "tiktok", "ovation", "fakechat", "other"]);
    expect(registry.find((p) => p.id === "fakechat")?.alerts).toHaveLength(6);
    expect(registry.find((p) => p.id === "other")).toMatchObject({ name: "Other Chat", alerts: [{ type: "follow" }] });
  });
});

describe("plugin API version", () => {
  it("accepts this version and an older minor; refuses another major, a newer minor and garbage, saying why", () => {
    expect(apiVersionProblem(PLUGIN_API_VERSION)).toBeNull();
    expect(apiVersionProblem("1.0", "1.3")).toBeNull();
    expect(apiVersionProblem("2.0", "1.0")).toMatch(/built for plugin API 2\.0, but this Ovation implements 1\.0/);
    expect(apiVersionProblem("0.9", "1.0")).toMatch(/major 1/);
    expect(apiVersionProblem("1.4", "1.0")).toMatch(/newer/);
    expect(apiVersionProblem(undefined)).toMatch(/no valid plugin API version/);
  });

  it("definePlugin attaches id, settings schema and the contracts' API version to the factory", async () => {
    const factory = definePlugin({ id: "fakechat", settings: z.object({ url: z.string() }) }, (settings) => plugin(settings.url));
    expect(factory.id).toBe("fakechat");
    expect(factory.apiVersion).toBe(PLUGIN_API_VERSION);
    expect(factory.settings.safeParse({}).success).toBe(false);
    const made = await factory({ url: "fakechat" }, { logger: pino({ level: "silent" }), dataDir: "/tmp", firstUserId: () => null, ...noServices });
    expect(made.metadata.platform).toBe("fakechat");
  });
});
