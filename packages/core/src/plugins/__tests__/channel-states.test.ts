import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { until } from "../../plugin-kit/testing/index.js";
import type { PluginContext, ServedChannel } from "../contract.js";
import { PluginHost } from "../host.js";
import { TestPlugin } from "./test-plugin.js";

const logger = pino({ level: "silent" });

const served = (connectionId: number): ServedChannel => ({ id: `user-${connectionId}`, connection_id: connectionId, platform_user_id: `p${connectionId}`, username: `streamer${connectionId}`, avatar_url: "", scopes: [] });

/** A plugin of API 1.1 whose serveChannel does what the test says before it resolves. */
class ServingPlugin extends TestPlugin {
  onServe: (channel: ServedChannel) => void = () => undefined;
  /** Every serveChannel call, by connection id. */
  readonly serves: number[] = [];

  async serveChannel(channel: ServedChannel): Promise<void> {
    this.serves.push(channel.connection_id);
    this.onServe(channel);
  }

  async releaseChannel(): Promise<void> {}
}

const stateOf = (host: PluginHost, connectionId: number) => host.channelStatus("test").find((c) => c.connection_id === connectionId);

/** A plugin whose connect() reports "connected" at once and resolves only when the test says (Twitch's chat is up before its EventSub). */
class SlowConnectPlugin extends ServingPlugin {
  finishConnect: () => void = () => undefined;

  override async connect(context: PluginContext): Promise<void> {
    await super.connect(context);
    context.setStatus("connected", null);
    await new Promise<void>((resolve) => (this.finishConnect = resolve));
  }
}

describe("PluginHost channel states", () => {
  it("a channel wanted while the plugin's connect() still runs is served once, when it resolves, even if the plugin already said it is connected (issue 25)", async () => {
    const host = new PluginHost({ logger });
    const plugin = new SlowConnectPlugin();
    host.register(plugin);
    const connecting = host.connect("test");
    await until(() => (host.health()[0]?.status === "connected" ? true : undefined), "the plugin's own connected");
    await host.serveChannel("test", served(4));
    expect(plugin.serves).toEqual([]);
    expect(stateOf(host, 4)?.state).toBe("starting");
    plugin.finishConnect();
    await connecting;
    await until(() => (stateOf(host, 4)?.state === "serving" ? true : undefined), "served once connected");
    expect(plugin.serves).toEqual([4]);
    await host.serveChannel("test", served(5));
    expect(plugin.serves).toEqual([4, 5]);
  });

  it("a plugin that says nothing while serving a channel serves it once serveChannel resolves", async () => {
    const host = new PluginHost({ logger });
    host.register(new ServingPlugin());
    await host.connect("test");
    await host.serveChannel("test", served(1));
    expect(stateOf(host, 1)?.state).toBe("serving");
  });

  it("a channel its plugin reported still starting (a chat not joined yet) stays starting until the plugin says it serves", async () => {
    const host = new PluginHost({ logger });
    const plugin = new ServingPlugin();
    plugin.onServe = (channel) => plugin.context?.setChannelStatus(channel.connection_id, "starting", "waiting to join the chat");
    host.register(plugin);
    await host.connect("test");
    await host.serveChannel("test", served(2));
    expect(stateOf(host, 2)).toMatchObject({ state: "starting", detail: "waiting to join the chat" });
    plugin.context?.setChannelStatus(2, "serving", null);
    expect(stateOf(host, 2)).toMatchObject({ state: "serving", detail: null });
  });

  it("a channel served again goes through starting: the state its plugin gave the earlier serve does not count", async () => {
    const host = new PluginHost({ logger });
    const plugin = new ServingPlugin();
    plugin.onServe = (channel) => plugin.context?.setChannelStatus(channel.connection_id, "serving", "first");
    host.register(plugin);
    await host.connect("test");
    await host.serveChannel("test", served(3));
    expect(stateOf(host, 3)).toMatchObject({ state: "serving", detail: "first" });
    plugin.onServe = () => undefined;
    await host.serveChannel("test", served(3));
    expect(stateOf(host, 3)).toMatchObject({ state: "serving", detail: null });
    plugin.onServe = (channel) => plugin.context?.setChannelStatus(channel.connection_id, "starting", "again");
    await host.serveChannel("test", served(3));
    expect(stateOf(host, 3)).toMatchObject({ state: "starting", detail: "again" });
  });
});
