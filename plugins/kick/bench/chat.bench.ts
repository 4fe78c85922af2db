// Chat messages per second from a raw Kick `chat.message.sent` webhook body (and a raw chat-socket
// frame) to validated chat events, beside a bare JSON.parse of the same text (the floor: every
// client of Kick's API pays it). Signature checks are not included (one RSA verify per request,
// measured separately below). Runs for a few seconds; imports the built packages.
import { generateKeyPairSync, sign } from "node:crypto";
import { readFileSync } from "node:fs";
import { compareRates, formatRate, reportComparison } from "../../../scripts/bench-compare.js";
import { chatEventSchema } from "@ovation/core/contracts";
import type { ChatChannel } from "@ovation/core/contracts";
import { KickWebhookVerifier, mapSocketFrame, mapWebhookEvent, pusherFrameSchema } from "@ovation/plugin-kick";

const webhooks = JSON.parse(readFileSync(new URL("../../../fixtures/kick/webhooks.json", import.meta.url), "utf8")) as {
  events: Record<string, { type: string; body: { sender?: unknown } }>;
};
const socket = JSON.parse(readFileSync(new URL("../../../fixtures/kick/chat-socket.json", import.meta.url), "utf8")) as {
  frames: Record<string, { event: string }>;
};
const broadcaster = { is_anonymous: false, user_id: 123456789, username: "KickStreamer", is_verified: true, profile_picture: "", channel_slug: "kickstreamer", identity: null };
// The chat fixtures plus plain chatter, which is most of real chat.
const plain = Array.from({ length: 8 }, (_, i) => ({
  message_id: `bench-${i}`,
  broadcaster,
  sender: { is_anonymous: false, user_id: 1000 + i, username: `Viewer${i}`, is_verified: false, profile_picture: "", channel_slug: `viewer${i}`, identity: { username_color: "#22AA88", badges: i % 3 === 0 ? [{ text: "Subscriber", type: "subscriber", count: 2 }] : [] } },
  content: `hello chat, how is everyone doing today? message ${i}`,
  emotes: [],
  created_at: `2026-11-23T15:00:0${i}Z`,
}));
const bodies = [...Object.values(webhooks.events).filter((e) => e.type === "chat.message.sent").map((e) => e.body), ...plain].map((b) => JSON.stringify(b));
const frames = Object.values(socket.frames).filter((f) => f.event === "App\\Events\\ChatMessageEvent").map((f) => JSON.stringify(f));

const channel: ChatChannel = { id: "1", platform_id: "123456789", username: "KickStreamer", avatar_url: "" };

let sink = 0;
function floor(line: string): void {
  if (JSON.parse(line)) sink++;
}
// A socket frame's `data` is JSON inside JSON: the bare floor parses both.
function floorFrame(line: string): void {
  if (JSON.parse((JSON.parse(line) as { data: string }).data)) sink++;
}
function webhook(line: string): void {
  const outcome = mapWebhookEvent({ type: "chat.message.sent", version: "1", messageId: "m", timestamp: "2026-11-23T15:00:00Z", payload: JSON.parse(line) }, channel);
  if (outcome.kind === "chat" && chatEventSchema.safeParse(outcome.event).success) sink++;
}
function pusher(line: string): void {
  const outcome = mapSocketFrame(pusherFrameSchema.parse(JSON.parse(line)), channel);
  if (outcome.kind === "chat" && chatEventSchema.safeParse(outcome.event).success) sink++;
}
const valid = (fn: (line: string) => void) => (line: string): boolean => {
  const before = sink;
  fn(line);
  return sink === before + 1;
};

const rounds = 9;
const w = compareRates(floor, webhook, bodies, rounds, valid(webhook));
console.log(`webhook bodies: ${bodies.length} distinct (fixtures + plain chatter); medians of ${rounds} alternating rounds`);
console.log(`ratio (floor / ours)                     ${w.ratio.toFixed(2)}x slower than the bare parse`);
reportComparison("kick.webhook", { floor: "JSON.parse alone (floor)", ours: "raw webhook -> validated chat event" }, w);
const p = compareRates(floorFrame, pusher, frames, rounds, valid(pusher));
console.log(`chat-socket frames: ${frames.length} distinct`);
console.log(`ratio (floor / ours)                     ${p.ratio.toFixed(2)}x slower than the bare parse`);
reportComparison("kick.socket", { floor: "JSON.parse of frame and data (floor)", ours: "raw socket frame -> validated chat event" }, p);

// The signature check every webhook pays (RSA-2048 verify), bounded to 2,000 requests.
const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
const verifier = new KickWebhookVerifier({ publicKey: pair.publicKey.export({ type: "spki", format: "pem" }).toString(), toleranceSeconds: 300 });
const timestamp = new Date().toISOString();
const requests = Array.from({ length: 2_000 }, (_, i) => {
  const id = `01BENCH${i}`;
  const body = bodies[i % bodies.length] as string;
  const signature = sign("sha256", Buffer.from(`${id}.${timestamp}.${body}`), pair.privateKey).toString("base64");
  return { headers: { "kick-event-message-id": id, "kick-event-signature": signature, "kick-event-message-timestamp": timestamp, "kick-event-type": "chat.message.sent", "kick-event-version": "1" }, body };
});
const start = process.hrtime.bigint();
let accepted = 0;
for (const r of requests) if (verifier.verify(r).accepted) accepted++;
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
console.log(`signed webhooks verified                 ${formatRate(accepted / seconds).padStart(12)} req/s (${accepted}/${requests.length} accepted)`);
if (sink < 0) console.log(sink);
