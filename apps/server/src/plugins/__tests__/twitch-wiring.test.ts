import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import type { OvationApp } from "../../app.js";
import { bootstrap } from "../../cli/first-run.js";
import { tempDataDir, testConfig } from "../../__tests__/helpers.js";
import { listen, waitFor } from "../../__tests__/socket-helpers.js";
import { MiniTwitchChat } from "./mini-twitch-chat.js";
import { loadPluginSettings } from "../plugin-config.js";

describe("plugin settings from the environment", () => {
  it("defaults to the console and names bad variables", () => {
    expect(loadPluginSettings({})).toEqual({ plugins: ["console"], twitch: null });
    expect(loadPluginSettings({ OVATION_PLUGINS: "none" })).toEqual({ plugins: [], twitch: null });
    expect(() => loadPluginSettings({ OVATION_PLUGINS: "twitch" })).toThrow("OVATION_TWITCH_CHANNELS: is required when the twitch plugin is enabled");
    expect(() => loadPluginSettings({ OVATION_PLUGINS: "twitch", OVATION_TWITCH_CHANNELS: "ok,not a login" })).toThrow(
      "OVATION_TWITCH_CHANNELS: entries must be `login` or `login:<user id>`",
    );
    expect(() => loadPluginSettings({ OVATION_PLUGINS: "twitch", OVATION_TWITCH_CHANNELS: "a", OVATION_TWITCH_TOKEN: "t" })).toThrow(
      "OVATION_TWITCH_USERNAME and OVATION_TWITCH_TOKEN: set both",
    );
    expect(loadPluginSettings({ OVATION_PLUGINS: "twitch, console", OVATION_TWITCH_CHANNELS: "Dallas:3,other" }).twitch?.channels).toEqual([
      { login: "dallas", userId: 3 },
      { login: "other", userId: null },
    ]);
  });
});

describe("the twitch plugin wired from OVATION_TWITCH_*", () => {
  const data = tempDataDir();
  let irc: MiniTwitchChat;
  let app: OvationApp;

  beforeAll(async () => {
    irc = await MiniTwitchChat.start("dallas", "12345678");
    app = await buildApp({
      config: testConfig(data.dir),
      logger: pino({ level: "silent" }),
      platforms: {
        env: {
          OVATION_PLUGINS: "console,twitch",
          OVATION_TWITCH_CHANNELS: "dallas",
          OVATION_TWITCH_USERNAME: "ovationbot",
          OVATION_TWITCH_TOKEN: "oauth:abc",
          OVATION_TWITCH_IRC_URL: `ws://127.0.0.1:${irc.port}`,
        },
      },
    });
    const result = bootstrap(app.ovation.repos);
    app.ovation.commands.reload(result.user.id);
    await listen(app);
  });
  afterAll(async () => {
    await app.close();
    await irc.close();
    data.remove();
  });

  it("joins the channel for the first user once listening, and answers its chat as the bot", { timeout: 60_000 }, async () => {
    await waitFor(() => app.platformPlugins.health().some((h) => h.name === "twitch" && h.status === "connected"), 20_000, "twitch connected");
    expect(irc.received).toContain("PASS oauth:abc");
    irc.publish(
      "@badges=;color=;display-name=Carol;emotes=;id=11111111-2222-4333-8444-555555555555;room-id=12345678;tmi-sent-ts=1700000000000;user-id=77 :carol!carol@carol.tmi.twitch.tv PRIVMSG #dallas :!hug Bob",
    );
    const line = await irc.waitFor((l) => l.includes("sends a hug"), 30_000);
    expect(line).toBe("@reply-parent-msg-id=11111111-2222-4333-8444-555555555555 PRIVMSG #dallas :Carol sends a hug to Bob <3");
  });
});
