import type { FakeEventSubServer } from "./fake-eventsub-server.js";
import type { FakeHelix } from "./fake-helix.js";
import type { FakeIrcServer } from "./fake-irc-server.js";

/**
 * The variables that point a host's Twitch plugin at the fakes: the bot account `ovationbot` with a
 * token the fakes accept, the app's client id and secret, and the chat, EventSub, Helix and token
 * addresses (like the Kick fake's `serverEnv()`).
 */
export function twitchServerEnv(fakes: { helix: FakeHelix; chat: FakeIrcServer; eventsub: FakeEventSubServer }): Record<string, string> {
  return {
    OVATION_TWITCH_USERNAME: "ovationbot",
    OVATION_TWITCH_TOKEN: "oauth:good-token",
    OVATION_TWITCH_CLIENT_ID: "fake-client",
    OVATION_TWITCH_CLIENT_SECRET: "fake-secret",
    OVATION_TWITCH_IRC_URL: `ws://127.0.0.1:${fakes.chat.port}`,
    OVATION_TWITCH_EVENTSUB_URL: fakes.eventsub.url,
    OVATION_TWITCH_HELIX_URL: `${fakes.helix.base}/helix`,
    OVATION_TWITCH_TOKEN_URL: `${fakes.helix.base}/oauth2/token`,
  };
}
