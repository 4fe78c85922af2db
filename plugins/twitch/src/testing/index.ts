/**
 * @ovation/plugin-twitch/testing: loopback fakes of Twitch chat (IRC over WebSocket), Helix with the
 * OAuth endpoints (authorize, token, validate) and EventSub WebSocket, with the recorded fixtures of
 * fixtures/twitch/, for tests of this plugin and of hosts that load it. Not for production use.
 */
export { FakeHelix } from "./fake-helix.js";
export type { HelixCall, HelixPoll } from "./fake-helix.js";
export { FakeIrcServer, privmsgLine } from "./fake-irc-server.js";
export { FakeEventSubServer } from "./fake-eventsub-server.js";
export { eventSubFixture, ircLine } from "./fixtures.js";
export { twitchServerEnv } from "./server-env.js";
