// Chat messages per second from raw liveChatMessage JSON (as one item of a liveChatMessages.list
// page) to validated chat events, beside a bare JSON.parse of the same text (the floor: every
// client of the Data API pays it). Runs for a few seconds; imports the built packages.
import { readFileSync } from "node:fs";
import { compareRates, reportComparison } from "../../../scripts/bench-compare.js";
import { chatEventSchema } from "@ovation/core";
import type { ChatChannel } from "@ovation/core";
import { mapLiveChatMessage } from "@ovation/plugin-youtube";

const fixtures = JSON.parse(readFileSync(new URL("../../../fixtures/youtube/live-chat-messages.json", import.meta.url), "utf8")) as {
  messages: Record<string, { snippet: { type: string } }>;
};
// The text messages of the fixtures plus plain chatter, which is most of real chat.
const textMessages = Object.values(fixtures.messages).filter((m) => m.snippet.type === "textMessageEvent");
const plain = Array.from({ length: 8 }, (_, i) => ({
  kind: "youtube#liveChatMessage",
  etag: `etag-${i}`,
  id: `LCC.bench-${i}`,
  snippet: {
    type: "textMessageEvent",
    liveChatId: "Cg0KC2Z1bl9icm9hZGNhc3Q",
    authorChannelId: `UCviewer00000000000000${i}`,
    publishedAt: `2026-11-23T15:00:0${i}.000000+00:00`,
    hasDisplayContent: true,
    displayMessage: `hello chat, how is everyone doing today? message ${i}`,
    textMessageDetails: { messageText: `hello chat, how is everyone doing today? message ${i}` },
  },
  authorDetails: {
    channelId: `UCviewer00000000000000${i}`,
    channelUrl: `http://www.youtube.com/channel/UCviewer00000000000000${i}`,
    displayName: `Viewer${i}`,
    profileImageUrl: `https://yt3.ggpht.example/v${i}=s88`,
    isVerified: false,
    isChatOwner: false,
    isChatSponsor: i % 3 === 0,
    isChatModerator: false,
  },
}));
const lines = [...textMessages, ...plain].map((m) => JSON.stringify(m));

const channel: ChatChannel = { id: "1", platform_id: "UCowner00000000000000000", username: "FunStreamer", avatar_url: "" };

let sink = 0;
function floor(line: string): void {
  if (JSON.parse(line)) sink++;
}
function ours(line: string): void {
  const outcome = mapLiveChatMessage(JSON.parse(line), channel);
  if (outcome.kind === "chat" && chatEventSchema.safeParse(outcome.event).success) sink++;
}

// Sanity: every bench line must become a valid chat event, or the figure would flatter us.
const rounds = 9;
const result = compareRates(floor, ours, lines, rounds, (line) => {
  const before = sink;
  ours(line);
  return sink === before + 1;
});
console.log(`messages: ${lines.length} distinct (fixtures + plain chatter); medians of ${rounds} alternating rounds`);
console.log(`ratio (floor / ours)                     ${result.ratio.toFixed(2)}x slower than the bare parse`);
reportComparison("youtube.chat", { floor: "JSON.parse alone (floor)", ours: "raw JSON -> validated chat event" }, result);
if (sink < 0) console.log(sink);
