/**
 * @ovation/plugin-kick/testing: loopback fakes of Kick's OAuth server and public API, of Kick's
 * chat socket (Pusher), a webhook sender signing with a test key pair, and the recorded-shape
 * fixtures of fixtures/kick/, for tests of this plugin and of hosts that load it. Not for production use.
 */
export { FakeKick } from "./fake-kick.js";
export type { FakeKickAccount, SentChat } from "./fake-kick.js";
export { FakePusher } from "./fake-pusher.js";
export { KickWebhookSender } from "./webhook-sender.js";
export type { SentWebhook } from "./webhook-sender.js";
export { apiFixtures, socketFixtures, socketFrame, webhookEvent, webhookFixtures } from "./fixtures.js";
export type { AttackFixture, WebhookFixture } from "./fixtures.js";
