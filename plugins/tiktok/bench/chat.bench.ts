// Comments per second from a raw TikTok WebSocket frame (a WebcastPushFrame holding one
// ProtoMessageFetchResult with one WebcastChatMessage, protobuf as TikTok sends it) to a validated
// chat event, beside the bare protobuf decode of the same frame by tiktok-live-connector (the floor:
// every client of the library pays it). Runs for a few seconds; imports the built packages.
import { compareRates, reportComparison } from "../../../scripts/bench-compare.js";
import { chatEventSchema } from "@ovation/core";
import type { ChatChannel } from "@ovation/core";
import { mapTikTokMessage } from "@ovation/plugin-tiktok";
import { encodeFetchResult, encodePushFrame, tiktokMessage } from "@ovation/plugin-tiktok/testing";
import type { TikTokFixtureMessage } from "@ovation/plugin-tiktok/testing";
import { WebcastPushFrame, deserializeMessage } from "tiktok-live-connector";

// The comment fixtures plus plain chatter, which is most of real chat.
const comments: TikTokFixtureMessage[] = ["comment", "moderator-comment", "emote-comment"].map(tiktokMessage);
for (let i = 0; i < 8; i++) {
  const m = tiktokMessage("comment");
  Object.assign(m.data, { content: `hello chat, how is everyone doing today? message ${i}` });
  Object.assign(m.data["common"] as object, { msgId: `73110000000000009${String(i).padStart(2, "0")}` });
  Object.assign(m.data["user"] as object, { id: `69010000000000009${i}`, displayId: `viewer${i}` });
  comments.push(m);
}
const frames = new Map<string, Uint8Array>();
comments.forEach((m, i) => frames.set(`frame-${i}`, encodePushFrame(encodeFetchResult([m], { cursor: `c${i}`, internalExt: `e${i}` }), String(i))));
const keys = [...frames.keys()];

const channel: ChatChannel = { id: "1", platform_id: "6900000000000000001", username: "ovationstreamer", avatar_url: "" };

interface Decoded {
  messages: { method: string; decodedData?: { data: unknown } }[];
}
/** What the library does with every frame: the push frame, then the batch and each message in it. */
function decode(key: string): Decoded {
  const frame = WebcastPushFrame.decode(frames.get(key) as Uint8Array);
  return deserializeMessage("ProtoMessageFetchResult", Buffer.from(frame.payload)) as Decoded;
}

let sink = 0;
function floor(key: string): void {
  if (decode(key).messages[0]?.decodedData) sink++;
}
function ours(key: string): void {
  for (const message of decode(key).messages) {
    const outcome = mapTikTokMessage(message.method, message.decodedData?.data, channel);
    if (outcome.kind === "chat" && chatEventSchema.safeParse(outcome.event).success) sink++;
  }
}

// Sanity: every bench frame must become a valid chat event, or the figure would flatter us.
const rounds = 9;
const result = compareRates(floor, ours, keys, rounds, (key) => {
  const before = sink;
  ours(key);
  return sink === before + 1;
});
console.log(`frames: ${keys.length} distinct (fixtures + plain chatter); medians of ${rounds} alternating rounds`);
console.log(`ratio (floor / ours)                     ${result.ratio.toFixed(2)}x slower than the bare decode`);
reportComparison("tiktok.chat", { floor: "protobuf decode alone (floor)", ours: "raw frame -> validated chat event" }, result);
if (sink < 0) console.log(sink);
