/**
 * @ovation/plugin-youtube/testing: the loopback fake of Google OAuth 2.0 and the YouTube Data API
 * v3, and the recorded-shape fixtures of fixtures/youtube/, for tests of this plugin and of hosts
 * that load it. Not for production use.
 */
export { FakeGoogle } from "./fake-google.js";
export type { FakeYouTubeChannel } from "./fake-google.js";
export { apiFixtures, chatFixtures, chatMessage, errorFixtures } from "./fixtures.js";
