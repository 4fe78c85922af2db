import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import type { OvationApp } from "../../app.js";
import { bootstrap } from "../../cli/first-run.js";
import { tempDataDir, testConfig } from "../../__tests__/helpers.js";
import { listen, waitFor } from "../../__tests__/socket-helpers.js";
import { MiniTwitchChat } from "./mini-twitch-chat.js";
import { loadPlugins } from "../plugin-loader.js";

const load = (env: Record<string, string>) => loadPlugins({ env, dataDir: "/nonexistent-ovation", cwd: "/nonexistent-ovation" });

describe("plugin settings from the environment", () => {
  it("defaults to the console and names bad variables", async () => {
    expect((await load({})).map((p) => [p.entry, p.origin])).toEqual([["console", "built-in"]]);
    expect(await load({ OVATION_PLUGINS: "none" })).toEqual([]);
    await expect(load({ OVATION_PLUGINS: "twitch" })).rejects.toThrow("OVATION_TWITCH_CHANNELS: is required when the twitch plugin is enabled");
    await expect(load({ OVATION_PLUGINS: "twitch", OVATION_TWITCH_CHANNELS: "ok,not a login" })).rejects.toThrow(
      "OVATION_TWITCH_CHANNELS.1: entries must be `login` or `login:<user id>`",
    );
    await expect(load({ OVATION_PLUGINS: "twitch", OVATION_TWITCH_CHANNELS: "a", OVATION_TWITCH_TOKEN: "t" })).rejects.toThrow(
      "OVATION_TWITCH_USERNAME: set both username and token",
    );
    const [twitch] = await load({ OVATION_PLUGINS: "twitch, console", OVATION_TWITCH_CHANNELS: "Dallas:3,other" });
    expect(twitch?.settings).toMatchObject({ channels: [
      { login: "dallas", userId: 3 },
      { login: "other", userId: null },
    ] });
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
    if (result.kind !== "seeded") throw new Error("a fresh data directory is seeded");
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
