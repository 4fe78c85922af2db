/**
 * @ovation/plugin-tiktok/testing: the loopback fake of TikTok LIVE (website, webcast API, signing
 * service and WebSocket push server, speaking the real protobuf), a fake of TikTok Login Kit v2
 * (OAuth authorize, token and user info) and the fixtures of
 * fixtures/tiktok/, for tests of this plugin and of hosts that load it. Not for production use.
 */
export { FakeWebcast } from "./fake-webcast.js";
export type { FakeRequest } from "./fake-webcast.js";
export { FakeTikTokLogin } from "./fake-tiktok-login.js";
export type { FakeTikTokAccount } from "./fake-tiktok-login.js";
export { encodeFetchResult, encodeMessage, encodePushFrame } from "./encode.js";
export { giftStreakMessages, likeMessages, loopbackTls, tiktokFixtures, tiktokMessage } from "./fixtures.js";
export type { TikTokFixtureMessage } from "./fixtures.js";
